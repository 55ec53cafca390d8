/**
 * bench/rules: rule evaluation measured. Part 1 — evaluations/s of the compiled rule closure beside a
 * hand-written JS closure for the same condition (target ≥ 30M/s on one core). Part 2 — p99 from a point published
 * over MQTT to its stored alert row on PostgreSQL, beside publish → PUBACK (target ≤ 1 s). Not part of `npm test`.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:rules -w @tessera/bench
 *   env: BENCH_EVALUATIONS (50M), BENCH_DEVICES (50), BENCH_SECONDS (15), BENCH_PERIOD_MS (100)
 */
import { measureClosure } from './closure.js';
import { measureLatency } from './latency.js';

async function main(): Promise<void> {
  const perS = measureClosure();
  const p99 = await measureLatency();
  console.log(
    `rules: ${(perS / 1e6).toFixed(1)}M evaluations/s (≥ 30M: ${perS >= 30e6 ? 'met' : 'NOT met'}), ` +
      `point → alert p99 ${p99.toFixed(0)} ms (≤ 1000 ms: ${p99 <= 1000 ? 'met' : 'NOT met'})`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
