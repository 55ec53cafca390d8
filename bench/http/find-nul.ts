/**
 * What the NUL rule (contracts `findNul`, core/input-guard.ts) costs a request: the search of the path parameters and
 * the query of a device route, and of a 40-widget dashboard body, beside `JSON.stringify` of the same values in the
 * same run — a walk of every value that the machine's speed moves alike.
 *
 *   npm run bench:find-nul -w @tessera/bench
 *   env: BENCH_ROUNDS (5)
 */
import { findNul } from '@tessera/contracts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const params = { integrationId: '12', networkServer: 'chirpstack' };
const query = { event: 'up' };
const body = {
  name: 'plant floor',
  widgets: Array.from({ length: 40 }, (_, i) => ({
    id: i,
    type: 'line',
    title: `widget ${i}`,
    series: [{ tangram_id: 'T'.repeat(30), key: 'temperature' }],
  })),
};

/** Median µs per call of `fn` over `n` calls, in ROUNDS rounds. */
function perCallUs(n: number, fn: () => unknown): number {
  const rounds: number[] = [];
  let sink = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) sink += fn() ? 1 : 0;
    rounds.push(((performance.now() - t0) * 1000) / n);
  }
  if (sink < 0) console.log(sink);
  return rounds.sort((a, b) => a - b)[Math.floor(rounds.length / 2)] as number;
}

const cases = [
  {
    name: 'route parameters and query',
    n: 500_000,
    search: () => findNul(params, 'params') ?? findNul(query, 'querystring'),
    baseline: () => JSON.stringify(params) + JSON.stringify(query),
  },
  { name: 'a 40-widget dashboard body', n: 20_000, search: () => findNul(body, 'body'), baseline: () => JSON.stringify(body) },
];
console.log(`findNul: median of ${ROUNDS} rounds, µs per call`);
for (const c of cases) {
  const search = perCallUs(c.n, c.search);
  const baseline = perCallUs(c.n, c.baseline);
  console.log(
    `  ${c.name}: findNul ${search.toFixed(3)} µs, JSON.stringify ${baseline.toFixed(3)} µs (${(search / baseline).toFixed(2)}×)`,
  );
}
