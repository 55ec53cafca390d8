/**
 * A private Mosquitto 2.0 (Debian's /usr/sbin/mosquitto) on a free loopback port with its own configuration and
 * directory — for tests and benchmarks that need a broker of their own, e.g. playing ChirpStack's MQTT integration
 * broker (modules/lorawan/mqtt-subscriptions.ts). Password authentication (mosquitto_passwd) when `users` is given,
 * else anonymous. Never the machine's own broker on 1883.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/modules/mail/smtp-sink.fixture.js';
import { tcpProbe } from './until.js';

const MOSQUITTO = '/usr/sbin/mosquitto';
const MOSQUITTO_PASSWD = '/usr/bin/mosquitto_passwd';
/** How long the broker may take to accept connections, in milliseconds. */
const START_TIMEOUT_MS = 10_000;

/** A running private broker. */
export interface TMosquitto {
  port: number;
  /** `mqtt://127.0.0.1:{port}`, without credentials. */
  url: string;
  /** Kills the broker (SIGTERM) and removes its directory. */
  stop(): Promise<void>;
}

const accepts = async (port: number): Promise<boolean> => (await tcpProbe(port)) === 'accepted';

/**
 * Starts a broker; `users` (username → password) turns on password authentication; `extraLines` are added to its
 * configuration (mosquitto.conf(5)).
 * @throws when it does not accept connections within 10 s, or exits first.
 */
export async function startMosquitto(opts: { users?: Record<string, string>; extraLines?: string[] } = {}): Promise<TMosquitto> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-mosquitto-'));
  const port = await freePort();
  const lines = [`listener ${port} 127.0.0.1`, `log_dest file ${join(dir, 'mosquitto.log')}`];
  if (opts.users) {
    const file = join(dir, 'passwd');
    writeFileSync(file, '');
    for (const [user, password] of Object.entries(opts.users)) execFileSync(MOSQUITTO_PASSWD, ['-b', file, user, password]);
    lines.push('allow_anonymous false', `password_file ${file}`);
  } else lines.push('allow_anonymous true');
  if (process.getuid?.() === 0) lines.push('user root');
  lines.push(...(opts.extraLines ?? []));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `${lines.join('\n')}\n`);
  const child: ChildProcess = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await accepts(port))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`mosquitto did not start on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
