/**
 * The command lines docs/protocol.md shows (`mosquitto_pub`, `mosquitto_sub`, `curl`), read from the document and run
 * as written against a test server: the documented host and port replaced by the server's, the placeholders by real
 * values. The tests of the documented examples share this, so every example is run the same way.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

/** Runs a program with arguments (no shell); answers its stdout and stderr. */
export const runCommand = promisify(execFile);

const PROTOCOL_MD = new URL('../../../docs/protocol.md', import.meta.url);
/** The MQTT host and HTTP origin the document's examples use. */
const DOCUMENTED_MQTT_HOST = 'localhost';
const DOCUMENTED_HTTP_ORIGIN = 'http://localhost:8080';

/** The lines of docs/protocol.md. */
export async function protocolDocLines(): Promise<string[]> {
  return (await readFile(PROTOCOL_MD, 'utf8')).split('\n');
}

/** Splits a shell command line on spaces, keeping '…' quoted words whole (enough for the documented examples). */
export function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** Where a documented command runs: the test server's MQTT URL and HTTP origin, and placeholder → value. */
export interface TCommandTarget {
  mqttUrl?: string;
  httpUrl?: string;
  values: Record<string, string>;
}

/**
 * The arguments of documented command `line` (the program's name left out) for `target`: the documented HTTP origin
 * becomes `target.httpUrl`, the MQTT host 127.0.0.1 and the `-p` port `target.mqttUrl`'s, and every placeholder of
 * `target.values` (e.g. `<ACCESS_TOKEN>`) its value.
 */
export function commandArgs(line: string, target: TCommandTarget): string[] {
  const args = shellWords(line)
    .slice(1)
    .map((word) => {
      let out = target.httpUrl ? word.replace(DOCUMENTED_HTTP_ORIGIN, target.httpUrl) : word;
      if (target.mqttUrl && out === DOCUMENTED_MQTT_HOST) out = '127.0.0.1';
      for (const [placeholder, value] of Object.entries(target.values)) out = out.replaceAll(placeholder, value);
      return out;
    });
  const port = args.indexOf('-p');
  if (target.mqttUrl && port >= 0) args[port + 1] = new URL(target.mqttUrl).port;
  return args;
}
