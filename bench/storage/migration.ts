/**
 * bench/storage/migration: how long moving raw telemetry to day partitions (migration 0019) stops ingest. A scratch
 * database migrated up to 0018 gets `MIGRATION_ROWS` (10 M) raw rows in the old unpartitioned table (100 devices ×
 * 4 keys at 1 Hz, the most recent days up to now), then 0019 runs while a writer keeps sending 400-point batches
 * through writeIngestBatch (the real ingest statement) every 50 ms; it prints the migration's duration and the
 * longest batch meanwhile beside the batches' p50 before it (the same run), and checks that no row was lost.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/storage/migration.ts
 *   env: MIGRATION_ROWS (10000000)
 */
import { runMigrations, type TTelemetryRowIn, writeIngestBatch } from '@tessera/server';
import { buildDeviceProject, migrateBeforePartitions, openScratchPostgres } from '@tessera/server/testing';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.env.MIGRATION_ROWS ?? 10_000_000);
const KEYS = ['temperature', 'humidity', 'status', 'vibration'];

async function main(): Promise<void> {
  const database = await openScratchPostgres(ADMIN_URL, 6, 'tessera_migration');
  database.pool?.on('error', () => undefined); // the final drop … with (force) ends idle connections
  const pool = database.pool!;
  try {
    await migrateBeforePartitions(database);
    const { devices } = await buildDeviceProject(database.db, { count: 100 });
    const seconds = Math.ceil(ROWS / 400);
    const now = Date.now();
    const first = now - seconds * 1000;
    let t = performance.now();
    const step = 2_000_000;
    for (let i = 0; i < ROWS; i += step) {
      await pool.query(
        `insert into telemetry (device_id, key, ts, svc_recv_ts, v1, v2, v3)
         select d.id, k.key, $1::bigint + (n / 400) * 1000, $1::bigint + (n / 400) * 1000 + 80, random() * 100, null, null
         from generate_series($2::bigint, $3::bigint) as n,
           lateral (select ($4::int[])[1 + (n / 4) % 100] as id) as d,
           lateral (select ($5::text[])[1 + n % 4] as key) as k`,
        [first, i, Math.min(ROWS, i + step) - 1, devices.map((d) => d.id), KEYS],
      );
    }
    await pool.query('vacuum analyze telemetry');
    console.log(`${ROWS.toLocaleString('en')} rows in the old table (${((performance.now() - t) / 1000).toFixed(0)} s to load)`);

    // The writer: one 400-point batch (each device's 4 keys) every 50 ms, device time = now.
    const latencies: { at: number; ms: number }[] = [];
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const ts = Date.now();
        const rows: TTelemetryRowIn[] = devices.flatMap((d) =>
          KEYS.map((key) => ({ deviceId: d.id, key, ts, svcRecvTs: ts + 5, v1: 1, v2: null, v3: null })),
        );
        const start = performance.now();
        written += (await writeIngestBatch(database.db, { telemetry: rows, status: [], rejected: [] })).inserted;
        latencies.push({ at: start, ms: performance.now() - start });
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await new Promise((r) => setTimeout(r, 3000));
    t = performance.now();
    await runMigrations(database);
    const migrationMs = performance.now() - t;
    await new Promise((r) => setTimeout(r, 2000));
    writing = false;
    await writer;

    const before = latencies
      .filter((l) => l.at < t)
      .map((l) => l.ms)
      .sort((a, b) => a - b);
    const during = latencies.filter((l) => l.at + l.ms >= t && l.at <= t + migrationMs).map((l) => l.ms);
    const { rows } = await pool.query<{ n: string }>('select count(*) as n from telemetry');
    const kept = Number(rows[0].n) === ROWS + written;
    console.log(`migration 0019 over ${ROWS.toLocaleString('en')} rows: ${(migrationMs / 1000).toFixed(2)} s`);
    console.log(
      `ingest batches: p50 ${before[before.length >> 1].toFixed(0)} ms before the migration; longest while it ran ${Math.max(...during).toFixed(0)} ms (${during.length} batches); every row kept: ${kept}`,
    );
    if (!kept) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
