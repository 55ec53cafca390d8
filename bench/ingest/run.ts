/**
 * bench/ingest: durable telemetry points/s from N simulated devices (real MQTT.js clients, QoS 1, arrays of
 * points) through the embedded Aedes broker into PostgreSQL, beside a plain COPY of the same number of rows into
 * an identical empty table, measured in the same run. "Durable" = acknowledged (PUBACK after commit) and found
 * in the telemetry table.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:ingest -w @tessera/bench
 *   env: BENCH_DEVICES (100), BENCH_SECONDS (20), BENCH_POINTS (100 per message), INGEST_BATCH_MAX, INGEST_FLUSH_MS
 */
import { DEVICE_RATE_POINTS_PER_S, topics } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import pino from 'pino';
import { from as copyFrom } from 'pg-copy-streams';
import { loadConfig, startServer } from '@tessera/server';
import { openScratchPostgres, buildDeviceProject } from '@tessera/server/testing';
import { connectDevices } from '../support/devices.js';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const POINTS = Number(process.env.BENCH_POINTS ?? 100);
const KEYS = ['temperature', 'humidity', 'vibration', 'current'];
// Each device stays just under its rate limit (token bucket), so nothing is refused.
const MESSAGE_PERIOD_MS = Math.ceil((1000 * POINTS) / (DEVICE_RATE_POINTS_PER_S * 0.95));

function pointsOf(deviceSeq: number, seq: number): { key: string; ts: number; vs: number[] }[] {
  const base = 1_700_000_000_000 + seq * POINTS;
  return Array.from({ length: POINTS }, (_, i) => {
    const key = KEYS[i % KEYS.length];
    return { key, ts: base + i, vs: key === 'vibration' ? [0.01, -0.02, 1] : [20 + ((deviceSeq + i) % 10)] };
  });
}

async function main(): Promise<void> {
  const database = await openScratchPostgres(ADMIN_URL, 10, 'tessera_bench');
  const config = { ...loadConfig({ ...process.env, DEMO: '0' }), port: 0, mqttPort: 0, host: '127.0.0.1', webDist: '/nonexistent' };
  const server = await startServer(config, { database, log: pino({ level: 'warn' }) });
  const clients: MqttClient[] = [];
  try {
    const { devices } = await buildDeviceProject(database.db, { count: DEVICES });
    clients.push(...(await connectDevices(server.mqttPort as number, devices)));
    console.log(`ingest bench: ${DEVICES} devices × ${POINTS}-point QoS 1 messages every ${MESSAGE_PERIOD_MS} ms for ${SECONDS} s`);
    console.log(`server: INGEST_BATCH_MAX=${config.ingestBatchMax} INGEST_FLUSH_MS=${config.ingestFlushMs}`);

    let acked = 0;
    let sent = 0;
    const inflight: Promise<void>[] = [];
    const started = performance.now();
    const stopAt = started + SECONDS * 1000;
    await Promise.all(
      clients.map(async (client, di) => {
        const topic = topics.telemetry(devices[di].tangramId);
        await new Promise((r) => setTimeout(r, Math.random() * MESSAGE_PERIOD_MS));
        for (let seq = 0; performance.now() < stopAt; seq += 1) {
          const next = performance.now() + MESSAGE_PERIOD_MS;
          sent += POINTS;
          inflight.push(
            client.publishAsync(topic, JSON.stringify(pointsOf(di, seq)), { qos: 1 }).then(() => {
              acked += POINTS;
            }),
          );
          await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
        }
      }),
    );
    await Promise.allSettled(inflight);
    const elapsedS = (performance.now() - started) / 1000;
    const counted = Number((await database.pool!.query('select count(*) as n from telemetry')).rows[0].n);
    const durable = Math.min(acked, counted);
    console.log(`sent ${sent} points, acknowledged ${acked}, in the table ${counted}`);
    console.log(`ingest: ${Math.round(durable / elapsedS)} durable points/s (${elapsedS.toFixed(1)} s)`);

    // Baseline: a plain COPY of as many rows into an identical empty table, same database, same run.
    await database.pool!.query('create table telemetry_copy (like telemetry including all)');
    const rows = durable;
    const c = await database.pool!.connect();
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const stream = c.query(copyFrom('copy telemetry_copy (device_id, key_id, ts, svc_recv_ts, v1, v2, v3) from stdin'));
      stream.on('finish', () => resolve());
      stream.on('error', reject);
      const now = Date.now();
      let buf = '';
      for (let i = 0; i < rows; i += 1) {
        buf += `${devices[i % DEVICES].id}\t${1 + (i % KEYS.length)}\t${1_700_000_000_000 + i}\t${now}\t21.5\t\\N\t\\N\n`;
        if (buf.length > 1 << 20) {
          stream.write(buf);
          buf = '';
        }
      }
      stream.end(buf);
    });
    const copyS = (performance.now() - t0) / 1000;
    c.release();
    console.log(`COPY baseline: ${rows} rows in ${copyS.toFixed(2)} s = ${Math.round(rows / copyS)} rows/s`);
    console.log(`ingest / COPY = ${((durable / elapsedS / (rows / copyS)) * 100).toFixed(0)} %`);
  } finally {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await server.close();
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
