/**
 * bench/views dashboard and analytics: what the console asks of the server when a 12-widget dashboard opens and when
 * analytics compares 5 devices over 90 days, as real HTTP requests (the browser's, all at once) against the real
 * server on PostgreSQL, beside a same-run baseline: as many concurrent authenticated requests that touch no data
 * (`GET /frontstage-ts/v1/types`), i.e. the floor of HTTP, auth and Node on this machine. The requests come from a
 * child process (dashboard-load.ts), so the client's CPU is not the server's. Figures: p50 and p95 of the time until
 * every request of a page answered, and the server process's CPU per page (warm-up loads included).
 * Targets: dashboard p95 ≤ 100 ms in every round (BENCH_ROUNDS rounds in a row, each beside its own baseline);
 * analytics p95 ≤ 150 ms. Then each dashboard request type's p50 and p95 while the pages loaded, to show which dominate.
 *
 * Data: 12 devices with 24 hours of temperature every 10 s; 5 of them with 90 days of current every minute
 * (648,000 points; raw rows, 1-min and 1-h rollups, latest values).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:dashboard -w @tessera/bench
 *   env: BENCH_RUNS (40 page loads per figure), BENCH_ROUNDS (2), BENCH_WARMUP (20 page loads before each figure)
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { alertPaths, DAY_MS, paths } from '@tessera/contracts';
import { startBenchServer } from '../support/bench-server.js';
import type { TPageLoadJob, TPageLoadResult, TPageRequest } from './dashboard-load.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const NOW = Date.now();
const MINUTE = 60_000;

/** p-th percentile (0–100) of `values` (nearest rank). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The load process (dashboard-load.ts under tsx): `measure` runs one job there; `stop` ends it. */
function startPageLoader(): { measure(job: TPageLoadJob): Promise<TPageLoadResult>; stop(): void } {
  const child = fork(fileURLToPath(new URL('./dashboard-load.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });
  return {
    measure: (job) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the page load process exited (${code})`));
        child.once('exit', onExit);
        child.once('message', (result: TPageLoadResult) => {
          child.off('exit', onExit);
          resolve(result);
        });
        child.send(job);
      }),
    stop: () => child.disconnect(),
  };
}

async function main(): Promise<void> {
  const bench = await startBenchServer({ devices: 12 });
  const { database, server, project, token } = bench;
  const pool = database.pool!;
  const base = `http://127.0.0.1:${server.httpPort}`;
  try {
    const t0 = performance.now();
    const ids = project.devices.map((d) => d.id);
    const compared = project.devices.slice(0, 5);
    await pool.query(`insert into telemetry_keys (key) values ('temperature'), ('current') on conflict (key) do nothing`);
    await pool.query(
      `insert into telemetry (device_id, key_id, ts, svc_recv_ts, v1)
       select d, (select id from telemetry_keys where key = 'temperature'), $2::bigint - i * 10000, $2::bigint - i * 10000, 22 + sin(i / 360.0) * 4 + d % 3
       from unnest($1::int[]) d, generate_series(0::bigint, 8639) i`,
      [ids, NOW],
    );
    await pool.query(
      `insert into telemetry (device_id, key_id, ts, svc_recv_ts, v1)
       select d, (select id from telemetry_keys where key = 'current'), $2::bigint - i * ${MINUTE}, $2::bigint - i * ${MINUTE}, 1.5 + sin(i / 10.0) * 0.5 + (d % 5) / 10.0
       from unnest($1::int[]) d, generate_series(0::bigint, 90 * 1440 - 1) i`,
      [compared.map((d) => d.id), NOW],
    );
    for (const ms of [MINUTE, 60 * MINUTE]) {
      await pool.query(
        `insert into telemetry_rollup (device_id, key, bucket_ms, bucket_ts, count, v1_min, v1_max, v1_sum, first_ts, first_v1, last_ts, last_v1)
         select device_id, key, ${ms}, (ts / ${ms}) * ${ms}, count(*), min(v1), max(v1), sum(v1)::numeric, min(ts),
           (array_agg(v1 order by ts))[1], max(ts), (array_agg(v1 order by ts desc))[1]
         from telemetry join telemetry_keys k on k.id = key_id group by 1, 2, 4`,
      );
    }
    await pool.query(
      `insert into telemetry_latest (device_id, key, ts, svc_recv_ts, v1)
       select distinct on (device_id, key) device_id, key, ts, svc_recv_ts, v1 from telemetry join telemetry_keys k on k.id = key_id
       order by device_id, key, ts desc`,
    );
    await pool.query('vacuum analyze');
    // The loaded rows written out now, not by a checkpoint during the first figure.
    await pool.query('checkpoint');
    console.log(`views bench: data stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const loader = startPageLoader();
    /** Each dashboard request type's times (ms) while a dashboard page loaded, by type, over every round. */
    const byType = new Map<string, number[]>();
    const get = (path: string, query: Record<string, string | number> = {}, type?: string): TPageRequest => {
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
      return { url: `${base}${path}${qs ? `?${qs}` : ''}`, ...(type ? { type } : {}) };
    };
    const tid = (n: number) => project.devices[n].tangramId;
    const day = { startTs: NOW - DAY_MS, endTs: NOW };
    // The dashboard's widgets and the requests each makes when the page opens (features/dashboard/widgets).
    const deviceWidget = (n: number) => [
      get(paths.deviceV2(tid(n)), {}, 'device detail'),
      get(paths.tsDeviceTwins, { tangramIds: tid(n) }, 'twins'),
    ];
    const lineWidget = (first: number) =>
      [first, first + 1, first + 2].map((n) =>
        get(paths.tsTimeseriesV2, { tangramId: tid(n), key: 'temperature', ...day, fn: 'avg', diff: 'false', width: 300 }, 'series'),
      );
    const dashboard = [
      ...[0, 1, 2, 3].flatMap(deviceWidget), // 4 latest values
      ...[4, 5].flatMap(deviceWidget), // 2 gauges
      ...deviceWidget(6), // status
      ...lineWidget(0),
      ...lineWidget(3),
      ...lineWidget(6), // 3 line charts of 3 series
      get(alertPaths.dashboard, {}, 'alerts'), // alerts
      ...[7, 8, 9, 10, 11].map((n) => get(paths.devices, { page: 1, limit: 1, q: tid(n) }, 'device list')),
      get(paths.tsDeviceTwins, { tangramIds: [7, 8, 9, 10, 11].map(tid).join(',') }, 'twins'), // device table
    ];
    const range = { startTs: NOW - 90 * DAY_MS, endTs: NOW };
    const analytics = [
      ...compared.map((d) =>
        get(paths.tsTimeseriesV2, { tangramId: d.tangramId, key: 'current', ...range, fn: 'avg', diff: 'false', width: 600 }),
      ),
      get(paths.tsStatisticsSummary, { tangramIds: compared.map((d) => d.tangramId).join(','), keys: 'current', ...range }),
    ];
    const floor = (n: number) => Array.from({ length: n }, () => get(paths.tsTypes));

    /**
     * Times (ms) of RUNS page loads (every request of the page at once, until the last answered) by the load process,
     * after WARMUP loads: the figure is of a server that has answered pages before, as a running one has (after only
     * 3 loads the first figure of a run came out well above the second, the same code measured twice). CPU per page is
     * this process's, the server's alone: the client runs in the load process.
     */
    const measure = async (requests: TPageRequest[], timed = false) => {
      const cpu0 = process.cpuUsage();
      const result = await loader.measure({ requests, token, warmup: WARMUP, runs: RUNS });
      const cpu = process.cpuUsage(cpu0);
      if (timed) for (const [type, times] of Object.entries(result.byType)) byType.set(type, [...(byType.get(type) ?? []), ...times]);
      return { times: result.times, cpuMs: (cpu.user + cpu.system) / 1000 / (RUNS + WARMUP) };
    };
    const line = (name: string, { times, cpuMs }: { times: number[]; cpuMs?: number }, target?: string) =>
      console.log(
        `  ${name.padEnd(52)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms` +
          `${cpuMs === undefined ? '' : `   server CPU ${cpuMs.toFixed(1).padStart(5)} ms/page`}${target ? `   — target ${target}` : ''}`,
      );

    try {
      for (let round = 1; round <= ROUNDS; round++) {
        line(`dashboard, 12 widgets (${dashboard.length} requests), round ${round}`, await measure(dashboard, true), 'p95 ≤ 100 ms');
        line(`  baseline: ${dashboard.length} requests without data`, await measure(floor(dashboard.length)));
      }
      console.log('  dashboard requests by type, while the pages loaded (every round):');
      for (const [type, times] of byType) line(`    ${type} (${times.length / (ROUNDS * RUNS)} a page)`, { times });
      line(`analytics, 5 devices × 90 days (${analytics.length} requests)`, await measure(analytics), 'p95 ≤ 150 ms');
      line(`  baseline: ${analytics.length} requests without data`, await measure(floor(analytics.length)));
    } finally {
      loader.stop();
    }
  } finally {
    await bench.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
