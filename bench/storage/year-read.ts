/**
 * bench/storage/year-read: the history read a chart makes — v2 timeseries' query (`bucketSql` of
 * apps/server/src/modules/telemetry/timeseries.ts, planned by `planBuckets`, which picks the rollup by range) — of one
 * series over one year at a width of 1,000 points (12-hour buckets from the 1-hour rollup), beside the same read over
 * one day (5-minute buckets from the 1-minute rollup), measured in the same run, interleaved. Target: year p95 ≤ 20 ms.
 *
 * The HTTP route refuses ranges over HISTORY_RANGE_MAX_DAYS (90), so the year is read through the route's own query
 * (`db.execute(bucketSql(…))`, no HTTP); the route itself is timed at its 90-day maximum and at one day
 * (`app.inject`, the token's visibility and permission checks included), width 1,000.
 *
 * Data: `YEAR_SERIES` series (devices × 4 keys, default 8) with a year of 1-minute and 1-hour rollup rows each
 * (525,600 + 8,760 a series), written by SQL into the real `telemetry_rollup` of a scratch database (bench server).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:storage-year-read -w @tessera/bench
 *   env: YEAR_SERIES (8), YEAR_RUNS (200 reads of each kind)
 */
import { DAY_MS, paths, type TTimeseriesResponse } from '@tessera/contracts';
import { rowsOf } from '@tessera/server';
import { planBuckets } from '../../apps/server/src/modules/telemetry/buckets.js';
import { bucketSql } from '../../apps/server/src/modules/telemetry/timeseries.js';
import { startBenchServer } from '../support/bench-server.js';
import { pct, loadAverage } from './bench-stats.js';

const SERIES = Number(process.env.YEAR_SERIES ?? 8);
const RUNS = Number(process.env.YEAR_RUNS ?? 200);
const KEYS = ['temperature', 'humidity', 'status', 'vibration'];
const WIDTH = 1_000;
const END = Date.UTC(2026, 0, 1);
const YEAR_START = END - 365 * DAY_MS;

async function main(): Promise<void> {
  const devices = Math.ceil(SERIES / KEYS.length);
  const bench = await startBenchServer({ devices, telemetryStorageIntervalMs: 0 });
  const { database, server, project, token } = bench;
  const pool = database.pool!;
  try {
    const series = Array.from({ length: SERIES }, (_, i) => ({ device: project.devices[i % devices], key: KEYS[Math.floor(i / devices)] }));
    let t = performance.now();
    for (const s of series) {
      for (const bucketMs of [60_000, 3_600_000]) {
        // A daily swing plus noise; count, min, max, sum and first/last consistent with a point every 10 s.
        await pool.query(
          `insert into telemetry_rollup (device_id, key, bucket_ms, bucket_ts, count, v1_min, v1_max, v1_sum, first_ts, first_v1, last_ts, last_v1)
           select $1, $2, $3, b, n, v - 0.5, v + 0.5, (v * n)::numeric, b, v - 0.1, b + $3 - 10000, v + 0.1
           from generate_series($4::bigint, $5::bigint - $3, $3::bigint) as b,
             lateral (select ($3 / 10000)::int as n, 20 + 5 * sin(b / 13750987.08) + random() as v) as x`,
          [s.device.id, s.key, bucketMs, YEAR_START, END],
        );
      }
    }
    await pool.query('vacuum analyze telemetry_rollup');
    const rollupRows = Number((await pool.query('select count(*) as n from telemetry_rollup')).rows[0].n);
    console.log(
      `year-read bench: ${SERIES} series × a year of 1-min and 1-h rollups = ${rollupRows.toLocaleString('en')} rollup rows (written in ${((performance.now() - t) / 1000).toFixed(0)} s, not measured); load average ${loadAverage()}`,
    );

    const read = async (i: number, from: number): Promise<{ rows: number; source: string }> => {
      const s = series[i % SERIES];
      const plan = planBuckets(from, END - 1, WIDTH);
      const rows = rowsOf(await database.db.execute(bucketSql(s.device.id, s.key, 'avg', plan)));
      return { rows: rows.length, source: plan.source };
    };
    const api = async (i: number, from: number): Promise<TTimeseriesResponse> => {
      const s = series[i % SERIES];
      const url = `${paths.tsTimeseriesV2}?tangramId=${s.device.tangramId}&key=${s.key}&startTs=${from}&endTs=${END - 1}&width=${WIDTH}&fn=avg`;
      const res = await server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      if (res.statusCode !== 200) throw new Error(`API answered ${res.statusCode}: ${res.body}`);
      return res.json() as TTimeseriesResponse;
    };
    const kinds = [
      { name: 'query, 1 year', run: (i: number) => read(i, YEAR_START) },
      { name: 'query, 1 day (baseline)', run: (i: number) => read(i, END - DAY_MS) },
      {
        name: 'HTTP route, 90 days',
        run: async (i: number) => api(i, END - 90 * DAY_MS).then((a) => ({ rows: a.points.length, source: a.source })),
      },
      {
        name: 'HTTP route, 1 day',
        run: async (i: number) => api(i, END - DAY_MS).then((a) => ({ rows: a.points.length, source: a.source })),
      },
    ];
    for (const k of kinds) for (let i = 0; i < 10; i += 1) await k.run(i); // warm-up: plans cached, pages in memory
    const ms = kinds.map(() => [] as number[]);
    const shape = kinds.map(() => ({ rows: 0, source: '' }));
    t = performance.now();
    for (let i = 0; i < RUNS; i += 1) {
      for (const [j, k] of kinds.entries()) {
        const t0 = performance.now();
        shape[j] = await k.run(i);
        ms[j].push(performance.now() - t0);
      }
    }
    console.log(`${RUNS} reads of each kind, interleaved, width ${WIDTH}, fn avg; load average ${loadAverage()}`);
    for (const [j, k] of kinds.entries()) {
      console.log(
        `  ${k.name.padEnd(26)} ${String(shape[j].rows).padStart(4)} points from ${shape[j].source.padEnd(9)}  p50 ${pct(ms[j], 50).toFixed(1)} ms, p95 ${pct(ms[j], 95).toFixed(1)} ms`,
      );
    }
    console.log(
      `year-read: 1 year → ${shape[0].rows} points p95 ${pct(ms[0], 95).toFixed(1)} ms (target ≤ 20 ms), 1 day p95 ${pct(ms[1], 95).toFixed(1)} ms (same run)`,
    );
    if (pct(ms[0], 95) > 20) process.exitCode = 1;
  } finally {
    await bench.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
