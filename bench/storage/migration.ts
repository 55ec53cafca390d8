/**
 * bench/storage/migration: how long moving hot raw telemetry to key ids (migration 0032) stops ingest. A scratch
 * database migrated up to 0031 gets `MIGRATION_ROWS` (10 M) raw rows with text keys (100 devices × 4 keys at 1 Hz, the
 * most recent hours up to now, in their day partitions), then 0032 runs while a writer keeps sending 400-point batches
 * every 50 ms — with the earlier layout's insert (key as text) until the migration has committed, then through
 * writeIngestBatch (the real ingest statement, key ids); it prints the migration's duration and the longest batch
 * meanwhile beside the batches' p50 before it (the same run), and checks that no row was lost: the earlier layout's
 * rows and the new table's add up to every row stored (migration.int.test.ts reads them through telemetry_points()). (Migration 0019's figure in
 * docs/decisions/telemetry-storage.md was measured by this file's earlier version, with 0019 in place of 0032.)
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/storage/migration.ts
 *   env: MIGRATION_ROWS (10000000)
 */
import { runMigrations, type TTelemetryRowIn, writeIngestBatch } from '@tessera/server';
import { buildDeviceProject, KEY_IDS_MIGRATION, migrateBefore, openScratchPostgres } from '@tessera/server/testing';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.env.MIGRATION_ROWS ?? 10_000_000);
const KEYS = ['temperature', 'humidity', 'status', 'vibration'];
const DAY_MS = 86_400_000;

async function main(): Promise<void> {
  const database = await openScratchPostgres(ADMIN_URL, 6, 'tessera_migration');
  database.pool?.on('error', () => undefined); // the final drop … with (force) ends idle connections
  const pool = database.pool!;
  try {
    await migrateBefore(database, KEY_IDS_MIGRATION);
    const { devices } = await buildDeviceProject(database.db, { count: 100 });
    const seconds = Math.ceil(ROWS / 400);
    const now = Date.now();
    const first = now - seconds * 1000;
    for (let day = first - (first % DAY_MS); day <= now + DAY_MS; day += DAY_MS) {
      const name = `telemetry_${new Date(day).toISOString().slice(0, 10).replaceAll('-', '')}`;
      await pool.query(`create table ${name} partition of telemetry for values from (${day}) to (${day + DAY_MS})`);
    }
    let t = performance.now();
    const step = 250_000;
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
    console.log(`${ROWS.toLocaleString('en')} rows with text keys (${((performance.now() - t) / 1000).toFixed(0)} s to load)`);

    // The writer: one 400-point batch (each device's 4 keys) every 50 ms, device time = now.
    const latencies: { at: number; ms: number }[] = [];
    let writing = true;
    let written = 0;
    let keyIds = false;
    const writer = (async () => {
      while (writing) {
        const ts = Date.now();
        const rows: TTelemetryRowIn[] = devices.flatMap((d) =>
          KEYS.map((key) => ({ deviceId: d.id, key, ts, svcRecvTs: ts + 5, v1: 1, v2: null, v3: null })),
        );
        const start = performance.now();
        if (!keyIds) {
          try {
            const r = await pool.query(
              `insert into telemetry (device_id, key, ts, svc_recv_ts, v1)
               select d, k, $3::bigint, $3::bigint + 5, 1 from unnest($1::int[], $2::text[]) as u(d, k)
               on conflict (device_id, key, ts) do nothing`,
              [rows.map((r) => r.deviceId), rows.map((r) => r.key), ts],
            );
            written += r.rowCount ?? 0;
          } catch (err) {
            if ((err as { code?: string }).code !== '42703') throw err; // no column "key": the migration has run
            keyIds = true;
          }
        }
        if (keyIds) written += (await writeIngestBatch(database.db, { telemetry: rows, status: [], rejected: [] })).inserted;
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
    const during = latencies.filter((l) => l.at + l.ms >= t && l.at <= t + migrationMs + 1000).map((l) => l.ms);
    const { rows } = await pool.query<{ n: string }>(
      'select (select count(*) from telemetry_text_keys) + (select count(*) from telemetry) as n',
    );
    const kept = Number(rows[0].n) === ROWS + written;
    console.log(`migration 0032 over ${ROWS.toLocaleString('en')} rows: ${(migrationMs / 1000).toFixed(2)} s`);
    console.log(
      `ingest batches: p50 ${before[before.length >> 1].toFixed(0)} ms before the migration; longest from its start to 1 s after it ${Math.max(...during).toFixed(0)} ms (${during.length} batches); every row kept: ${kept} (${rows[0].n} read, ${ROWS + written} stored)`,
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
