/**
 * bench/ingest/write-only: writeIngestBatch alone (no broker, no parsing) on PostgreSQL, 5,000-point batches
 * written by W concurrent writers, to tell database time from event-loop time. Tuning aid, not a headline figure.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/ingest/write-only.ts
 *   env: BENCH_BATCHES (40), BENCH_BATCH (5000), BENCH_WRITERS (2)
 */
import { runMigrations, type TTelemetryRowIn, writeIngestBatch } from '@tessera/server';
import { openScratchPostgres, buildDeviceProject } from '@tessera/server/testing';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCHES = Number(process.env.BENCH_BATCHES ?? 40);
const SIZE = Number(process.env.BENCH_BATCH ?? 5000);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 2);
const KEYS = ['temperature', 'humidity', 'vibration', 'current'];

async function main(): Promise<void> {
  const database = await openScratchPostgres(ADMIN_URL, 10, 'tessera_wbench');
  database.pool?.on('error', () => undefined); // the final drop … with (force) ends idle connections
  try {
    await runMigrations(database);
    const { devices } = await buildDeviceProject(database.db, { count: 100 });
    let seq = 0;
    const batch = (): TTelemetryRowIn[] => {
      const now = Date.now();
      const rows: TTelemetryRowIn[] = [];
      for (let i = 0; i < SIZE; i += 1, seq += 1) {
        const key = KEYS[seq % 4];
        const vib = key === 'vibration';
        rows.push({
          deviceId: devices[seq % 100].id,
          key,
          ts: 1_700_000_000_000 + seq * 10,
          svcRecvTs: now,
          v1: 20 + (seq % 7),
          v2: vib ? 0.1 : null,
          v3: vib ? 1 : null,
        });
      }
      return rows;
    };
    const times: number[] = [];
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < BATCHES) {
          next += 1;
          const telemetry = batch();
          const t = performance.now();
          await writeIngestBatch(database.db, { telemetry, status: [], rejected: [] });
          times.push(performance.now() - t);
        }
      }),
    );
    const s = (performance.now() - t0) / 1000;
    times.sort((a, b) => a - b);
    console.log(
      `${BATCHES} × ${SIZE} points, ${WRITERS} writers: ${Math.round((BATCHES * SIZE) / s)} points/s; per batch p50 ${times[times.length >> 1].toFixed(0)} ms, p90 ${times[Math.floor(times.length * 0.9)].toFixed(0)} ms`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
