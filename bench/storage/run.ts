/**
 * bench/storage: bytes on disk per raw telemetry point and the time to read one day of raw rows, for today's
 * layout and the candidate layouts (layouts.ts), all holding the same generated points (signals.ts: 100 devices ×
 * 4 keys at 1 Hz by default) in a scratch database on DATABASE_URL's server that is dropped at the end.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:storage -w @tessera/bench
 *   env: STORAGE_DAYS (30), STORAGE_DEVICES (100), STORAGE_RUNS (30 reads per layout)
 *
 * Sizes are pg_total_relation_size (heap + indexes + TOAST) of every partition after VACUUM ANALYZE. The read is
 * one (device, key, UTC day) of raw rows — random series, the same ones for every layout — and every layout must
 * answer the same rows as today's layout, or the bench fails. The last line reads
 * `storage: <c> bytes/point compressed, <t> bytes/point in today's layout` (c: the best compressed layout).
 */
import { openScratchPostgres } from '@tessera/server/testing';
import { bytesOf, columnBytes, layouts, type TLayout, type TRawRow } from './layouts.js';
import { DAY_MS, FIRST_DAY, fillStaging, KEYS } from './signals.js';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DAYS = Number(process.env.STORAGE_DAYS ?? 30);
const DEVICES = Number(process.env.STORAGE_DEVICES ?? 100);
const RUNS = Number(process.env.STORAGE_RUNS ?? 30);

/** p-th percentile (nearest rank) of `ms`. */
function pct(ms: number[], p: number): number {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/** Whether this server can compress with lz4 (PostgreSQL built --with-lz4). */
async function hasLz4(pool: import('pg').Pool): Promise<boolean> {
  try {
    await pool.query('create temporary table lz4_probe (a text compression lz4)');
    return true;
  } catch {
    return false;
  }
}

interface TMeasured {
  layout: TLayout;
  bytes: number;
  loadS: number;
  readMs: number[];
  /** The server's execution time of the same reads (EXPLAIN ANALYZE, no row transfer). */
  serverMs: number[];
}

async function main(): Promise<void> {
  const database = await openScratchPostgres(ADMIN_URL, 2, 'tessera_storage');
  database.pool?.on('error', () => undefined); // the final drop … with (force) ends idle connections
  const pool = database.pool!;
  try {
    const points = DEVICES * KEYS.length * DAYS * 86_400;
    const version = (await pool.query('show server_version')).rows[0].server_version as string;
    const lz4 = await hasLz4(pool);
    console.log(
      `storage bench: ${DEVICES} devices × ${KEYS.length} keys at 1 Hz × ${DAYS} days = ${points.toLocaleString('en')} points; PostgreSQL ${version}, lz4 ${lz4 ? 'available' : 'not built in (pglz only)'}`,
    );
    let t = performance.now();
    await fillStaging(pool, DEVICES, DAYS);
    console.log(`generated in ${((performance.now() - t) / 1000).toFixed(1)} s (staging, not measured)`);

    const measured: TMeasured[] = [];
    for (const layout of layouts(lz4)) {
      await layout.create(pool);
      t = performance.now();
      for (let day = 0; day < DAYS; day += 1) await layout.loadDay(pool, FIRST_DAY + day * DAY_MS);
      const loadS = (performance.now() - t) / 1000;
      await pool.query(`vacuum analyze ${layout.relation}`);
      measured.push({ layout, bytes: await bytesOf(pool, layout.relation), loadS, readMs: [], serverMs: [] });
    }

    // The same random series and days for every layout, layouts interleaved in each round; answers compared.
    let mismatches = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const deviceId = 1 + ((run * 37) % DEVICES);
      const key = KEYS[run % KEYS.length];
      const from = FIRST_DAY + ((run * 7) % DAYS) * DAY_MS;
      let expected: TRawRow[] | undefined;
      for (const m of measured) {
        const q = m.layout.read(deviceId, key, from, from + DAY_MS - 1);
        t = performance.now();
        const rows = (await pool.query(q)).rows as TRawRow[];
        m.readMs.push(performance.now() - t);
        const plan = await pool.query({ text: `explain (analyze, timing off, format json) ${q.text}`, values: q.values });
        m.serverMs.push(plan.rows[0]['QUERY PLAN'][0]['Execution Time'] as number);
        if (!expected) expected = rows;
        else if (JSON.stringify(rows) !== JSON.stringify(expected)) {
          mismatches += 1;
          console.error(
            `${m.layout.name} answered ${rows.length} rows for device ${deviceId} ${key.name}, today's layout ${expected.length}`,
          );
        }
      }
    }

    const base = measured[0];
    console.log(
      '\n| layout | bytes on disk | bytes/point | load s | 1-day read p50 / p95 ms (client) | server p50 / p95 ms | server ÷ today p50 |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const m of measured) {
      console.log(
        `| ${m.layout.name} | ${m.bytes.toLocaleString('en')} | ${(m.bytes / points).toFixed(2)} | ${m.loadS.toFixed(1)} | ${pct(m.readMs, 50).toFixed(1)} / ${pct(m.readMs, 95).toFixed(1)} | ${pct(m.serverMs, 50).toFixed(1)} / ${pct(m.serverMs, 95).toFixed(1)} | ${(pct(m.serverMs, 50) / pct(base.serverMs, 50)).toFixed(2)}× |`,
      );
    }
    console.log(`\nreads: ${RUNS} per layout, one series' UTC day (86,400 rows); same rows in every layout: ${mismatches === 0}`);
    const compressed = measured.filter((m) => m.layout.name.startsWith('cold'));
    const best = compressed.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    console.log(
      `storage: ${(best.bytes / points).toFixed(2)} bytes/point compressed, ${(base.bytes / points).toFixed(2)} bytes/point in today's layout`,
    );
    const hot = measured.find((m) => m.layout.relation === 'hot_telemetry');
    if (hot) {
      console.log(
        `hot: ${(hot.bytes / points).toFixed(2)} bytes/point with key ids, ${(base.bytes / points).toFixed(2)} bytes/point with text keys (same run)`,
      );
    }
    console.log(`where the bytes of "${best.layout.name}" go, per key (bytes/point of the compressed arrays alone):`);
    for (const k of await columnBytes(pool, best.layout.relation)) {
      const n = points / KEYS.length;
      const name = KEYS.find((x) => x.id === k.key_id)?.name;
      console.log(`  ${name}: ts ${(k.ts / n).toFixed(2)}, svc_recv_ts ${(k.lags / n).toFixed(2)}, values ${(k.values / n).toFixed(2)}`);
    }
    if (mismatches > 0) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
