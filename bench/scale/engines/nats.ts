/**
 * nats-server 2.9 (Debian's /usr/sbin/nats-server) with JetStream and its MQTT listener, on free loopback ports
 * with its own config and store directory. MQTT topics map to subjects with `/` → `.` (NATS MQTT docs), so devices'
 * `devices/<id>/telemetry` lands on `devices.<id>.telemetry`, which the consumer's stream captures. The MQTT
 * listener needs JetStream and a `server_name`.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TEngine } from './engine.js';
import { engineProcess, freePort } from './process-tools.js';

const NATS_SERVER = '/usr/sbin/nats-server';

/** A nats-server engine whose consumer is a JetStream pull consumer acknowledging after commit. */
export async function natsEngine(): Promise<TEngine> {
  const dir = await mkdtemp(join(tmpdir(), 'engines-nats-'));
  const [port, mqttPort] = [await freePort(), await freePort()];
  const conf = join(dir, 'nats.conf');
  await writeFile(
    conf,
    [
      `listen: "127.0.0.1:${port}"`,
      'server_name: "engines_bench"',
      `jetstream { store_dir: "${join(dir, 'js')}" }`,
      `mqtt { listen: "127.0.0.1:${mqttPort}" }`,
      `log_file: "${join(dir, 'nats.log')}"`,
      '',
    ].join('\n'),
  );
  return {
    name: 'NATS JetStream (MQTT listener), pull consumer',
    mqttPort,
    consumer: { kind: 'jetstream', url: `127.0.0.1:${port}` },
    ...engineProcess(NATS_SERVER, ['-c', conf], [port, mqttPort], 20_000, dir),
  };
}
