/**
 * Mosquitto 2.0 (Debian's /usr/sbin/mosquitto) on a free loopback port with its own config and data directory.
 * Two configurations: the default one (what an operator gets: a per-session queue of 1,000, 20 in flight, no
 * persistence) and one that cannot drop (mosquitto.conf(5): `max_queued_messages 0` and `max_queued_bytes 0` lift the
 * per-session queue limits, `max_inflight_messages 0` lifts the in-flight limit, `persistence true` with an
 * `autosave_interval` of 1 s writes the in-memory database to disk every second — Mosquitto has no per-message log).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TEngine } from './engine.js';
import { engineProcess, freePort } from './process-tools.js';

const MOSQUITTO = '/usr/sbin/mosquitto';

/** Lines of the configuration that cannot drop an accepted message (short of a crash between two autosaves). */
const NO_DROP_LINES = [
  'max_queued_messages 0',
  'max_queued_bytes 0',
  'max_inflight_messages 0',
  'persistence true',
  'autosave_on_changes false',
  'autosave_interval 1',
];

/**
 * A Mosquitto engine. `tuned` false: the default configuration and today's consumer (the baseline); true: the
 * no-drop configuration and a consumer with many messages in flight.
 */
export async function mosquittoEngine(tuned: boolean): Promise<TEngine> {
  const dir = await mkdtemp(join(tmpdir(), 'engines-mosquitto-'));
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  const lines = [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'user root', `log_dest file ${join(dir, 'mosquitto.log')}`];
  if (tuned) lines.push(...NO_DROP_LINES, `persistence_location ${dir}/`);
  await writeFile(conf, `${lines.join('\n')}\n`);
  const url = `mqtt://127.0.0.1:${port}`;
  return {
    name: tuned ? 'Mosquitto, no-drop config, shared sub, 65,535 in flight' : 'Mosquitto, default config (baseline)',
    mqttPort: port,
    consumer: tuned ? { kind: 'mqtt-shared', url } : { kind: 'mqtt-baseline', url },
    ...engineProcess(MOSQUITTO, ['-c', conf], [port], 10_000, dir),
  };
}
