/**
 * bench/history: the 90-day v2 timeseries query (width 600, fn avg) through the real HTTP API (server started
 * in-process, app.inject) over 90 days of one device and key at one point every 10 s (≈ 778K rows) written
 * through writeIngestBatch (the real ingest write path, so the rollups are what ingest produces), beside the same
 * answer computed by hand-written SQL over the raw table, measured in the same run. Target: API p95 ≤ 100 ms.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:history -w @tessera/bench
 *   env: BENCH_RUNS (200), BENCH_PERIOD_MS (10000), BENCH_BATCH (20000 rows per writeIngestBatch)
 */
import { DAY_MS, paths, type TTimeseriesResponse } from '@tessera/contracts';
import { type TTelemetryRowIn, writeIngestBatch } from '@tessera/server';
import { startBenchServer } from '../support/bench-server.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const PERIOD_MS = Number(process.env.BENCH_PERIOD_MS ?? 10_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 20_000);
const KEY = 'temperature';
const END = Date.UTC(2026, 3, 1);
const START = END - 90 * DAY_MS;

/** p-th percentile (nearest rank) of `ms`. */
function pct(ms: number[], p: number): number {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

async function time(runs: number, fn: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

async function main(): Promise<void> {
  const { database, server, project, token, stop } = await startBenchServer();
  try {
    const device = project.devices[0];

    const total = Math.floor((END - START) / PERIOD_MS);
    const t0 = performance.now();
    for (let i = 0; i < total; i += BATCH) {
      const rows: TTelemetryRowIn[] = [];
      for (let j = i; j < Math.min(total, i + BATCH); j += 1) {
        const ts = START + j * PERIOD_MS;
        const v1 = 20 + 5 * Math.sin(ts / 43_200_000) + ((j * 7919) % 100) / 100; // daily swing plus jitter
        rows.push({ deviceId: device.id, key: KEY, ts, svcRecvTs: ts + 80, v1, v2: null, v3: null });
      }
      await writeIngestBatch(database.db, { telemetry: rows, status: [], rejected: [] });
    }
    const writeS = (performance.now() - t0) / 1000;
    await database.pool!.query('analyze');
    console.log(
      `history bench: ${total} rows (one every ${PERIOD_MS / 1000} s for 90 days) written through writeIngestBatch in ${writeS.toFixed(1)} s = ${Math.round(total / writeS)} rows/s`,
    );

    const apiUrl = `${paths.tsTimeseriesV2}?tangramId=${device.tangramId}&key=${KEY}&startTs=${START}&endTs=${END}&width=600&fn=avg`;
    let answer: TTimeseriesResponse | undefined;
    const apiMs = await time(RUNS, async () => {
      const res = await server.app.inject({ method: 'GET', url: apiUrl, headers: { authorization: `Bearer ${token}` } });
      if (res.statusCode !== 200) throw new Error(`API answered ${res.statusCode}: ${res.body}`);
      answer = res.json() as TTimeseriesResponse;
    });

    // The same answer by hand over the raw table: the API's bucket size and bucket-aligned bounds.
    const b = answer!.bucket_ms;
    const handSql = `select (ts / $1::bigint) * $1::bigint as b, avg(v1) as v from telemetry
      where device_id = $2 and key_id = (select id from telemetry_keys where key = $3) and ts between $4 and $5 group by 1 order by 1`;
    const args = [b, device.id, KEY, Math.floor(START / b) * b, Math.floor(END / b) * b + b - 1];
    let hand: { b: number; v: number }[] = [];
    const rawMs = await time(RUNS, async () => {
      hand = (await database.pool!.query(handSql, args)).rows;
    });
    const maxDiff = Math.max(...hand.map((h, i) => Math.abs(h.v - (answer!.points[i]?.vs[0] ?? Number.NaN))));
    const same = hand.length === answer!.points.length && maxDiff < 1e-9;

    console.log(
      `answer: ${answer!.points.length} points, bucket ${b / 3_600_000} h, source ${answer!.source}; equals the raw-SQL answer: ${same} (max |diff| ${maxDiff.toExponential(1)})`,
    );
    console.log(
      `API v2/timeseries 90 d (HTTP, app.inject, ${RUNS} runs): p50 ${pct(apiMs, 50).toFixed(1)} ms, p95 ${pct(apiMs, 95).toFixed(1)} ms (target p95 ≤ 100 ms)`,
    );
    console.log(
      `hand SQL over raw rows  (pg, ${RUNS} runs):          p50 ${pct(rawMs, 50).toFixed(1)} ms, p95 ${pct(rawMs, 95).toFixed(1)} ms`,
    );
    if (!same) process.exitCode = 1;
  } finally {
    await stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
