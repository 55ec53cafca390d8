/**
 * bench/rules, part 1: evaluations per second of the rule interpreter's compiled closure for a typical condition,
 * `temperature.v1 > 30 and humidity.v1 < 80`, beside a hand-written JS closure for the same condition over the same
 * inputs, in the same run, on one core. The value changes every iteration so nothing folds to a constant.
 */
import { ZRuleProgram } from '@tessera/contracts';
import { compileRuleProgram, emptyDeviceValues, fillFrame, createFrame } from '@tessera/server';

const ITERATIONS = Number(process.env.BENCH_EVALUATIONS ?? 50_000_000);
const ROUNDS = 5;

const program = ZRuleProgram.parse({
  version: 1,
  rules: [
    {
      block_id: null,
      condition: {
        type: 'and',
        conditions: [
          { type: 'compare', op: 'gt', left: { type: 'telemetry', key: 'temperature', slot: 'v1' }, right: { type: 'number', value: 30 } },
          { type: 'compare', op: 'lt', left: { type: 'telemetry', key: 'humidity', slot: 'v1' }, right: { type: 'number', value: 80 } },
        ],
      },
      actions: [{ type: 'alert', level: 'alert', message: 'hot and not too humid' }],
    },
  ],
});

/** Runs `body` ROUNDS times and answers the best rate (evaluations/s) and a checksum. */
function best(body: () => number): { perS: number; hits: number } {
  let perS = 0;
  let hits = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    hits = body();
    perS = Math.max(perS, ITERATIONS / ((performance.now() - t0) / 1000));
  }
  return { perS, hits };
}

/** Measures and prints; answers the compiled closure's evaluations/s. */
export function measureClosure(): number {
  const compiled = compileRuleProgram(program, new Map());
  if (!compiled.ok) throw new Error(compiled.error);
  const { refs, rules } = compiled.program;
  const condition = rules[0].condition;
  const frame = createFrame(refs.length, 0, 0);
  const device = emptyDeviceValues();
  device.telemetry.set('temperature', { ts: 1, vs: [25, Number.NaN, Number.NaN] });
  device.telemetry.set('humidity', { ts: 1, vs: [50, Number.NaN, Number.NaN] });
  fillFrame(frame, refs, device);
  const values = frame.values;
  const t = refs.findIndex((r) => r.key === 'temperature');
  const h = refs.findIndex((r) => r.key === 'humidity');

  const handWritten = (v: Float64Array) => v[t] > 30 && v[h] < 80;

  const compiledRun = best(() => {
    let hits = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      values[t] = 25 + (i & 15);
      if (condition(frame) === 1) hits++;
    }
    return hits;
  });
  const handRun = best(() => {
    let hits = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      values[t] = 25 + (i & 15);
      if (handWritten(values)) hits++;
    }
    return hits;
  });
  // The engine's per-evaluation work besides the condition: copying the device's values out of its Map.
  const withFill = best(() => {
    let hits = 0;
    const temperature = device.telemetry.get('temperature');
    for (let i = 0; i < ITERATIONS / 10; i++) {
      if (temperature) temperature.vs[0] = 25 + (i & 15);
      fillFrame(frame, refs, device);
      if (condition(frame) === 1) hits++;
    }
    return hits;
  });
  if (compiledRun.hits !== handRun.hits) throw new Error(`the closures disagree: ${compiledRun.hits} vs ${handRun.hits}`);
  const m = (x: number) => `${(x / 1e6).toFixed(1)}M/s`;
  console.log(`condition: temperature.v1 > 30 and humidity.v1 < 80 (${ITERATIONS} evaluations, best of ${ROUNDS})`);
  console.log(`  compiled rule closure:   ${m(compiledRun.perS)} (target ≥ 30M/s)`);
  console.log(`  hand-written JS closure: ${m(handRun.perS)} (baseline, same run)`);
  console.log(`  compiled / hand-written = ${((compiledRun.perS / handRun.perS) * 100).toFixed(0)} %`);
  console.log(`  compiled + reading the device's values from its Map: ${m(withFill.perS / 10)}`);
  return compiledRun.perS;
}
