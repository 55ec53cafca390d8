import { describe, expect, it } from 'vitest';
import type { TRunRow } from './flow-store.js';
import { runKind, TraceSampler } from './trace-sampler.js';

const run = (ruleId: number, i: number): TRunRow => ({
  tenantId: 1,
  ruleId,
  version: 1,
  trigger: { i },
  outcome: 'ok',
  error: null,
  replay: false,
  startedAt: i,
  durationMs: 0,
  steps: [],
  effects: [],
});

describe('the trace sampler', () => {
  it('traces the first runs of a second in full and the last one for the rest, counting every run', () => {
    const traced: TRunRow[] = [];
    const sampler = new TraceSampler((r) => traced.push(r), 3);
    for (let i = 0; i < 10; i++) sampler.offer(run(1, i), 'quiet', 1_000);
    // Another rule and another kind have allowances of their own.
    sampler.offer(run(2, 100), 'quiet', 1_000);
    sampler.offer(run(1, 200), 'refused', 1_000);
    expect(traced.map((r) => r.trigger.i)).toEqual([0, 1, 2, 100, 200]);

    sampler.sweep(1_999);
    expect(traced).toHaveLength(5);
    sampler.sweep(2_000);
    const held = traced.at(-1);
    expect(held?.trigger.i).toBe(9);
    expect(held?.untracedBefore).toBe(6);
    // Every offered run is in a traced row or counted on one.
    expect(traced.reduce((n, r) => n + 1 + (r.untracedBefore ?? 0), 0)).toBe(12);

    // A new window starts with a full allowance; close() hands over what is held.
    for (let i = 10; i < 15; i++) sampler.offer(run(1, i), 'quiet', 2_500);
    sampler.close();
    expect(traced.slice(6).map((r) => [r.trigger.i, r.untracedBefore ?? 0])).toEqual([
      [10, 0],
      [11, 0],
      [12, 0],
      [14, 1],
    ]);
  });

  it('builds the row of a run offered by a maker only when the run is traced', () => {
    const traced: TRunRow[] = [];
    const sampler = new TraceSampler((r) => traced.push(r), 2);
    let made = 0;
    const maker = (i: number) => () => {
      made += 1;
      return run(1, i);
    };
    for (let i = 0; i < 1_000; i++) sampler.offerMade(1, 'refused', maker(i), 1_000);
    expect(made).toBe(2);
    sampler.sweep(2_000);
    expect(made).toBe(3);
    expect(traced.map((r) => [r.trigger.i, r.untracedBefore ?? 0])).toEqual([
      [0, 0],
      [1, 0],
      [999, 997],
    ]);
  });

  it('tells runs that did something from errors, quiet runs and refusals', () => {
    expect(runKind('refused', [])).toBe('refused');
    expect(runKind('error', [{ node_type: 'alert' }])).toBe('error');
    expect(runKind('ok', [{ node_type: 'start' }, { node_type: 'condition' }])).toBe('quiet');
    expect(runKind('ok', [{ node_type: 'start' }, { node_type: 'notification' }])).toBe('acted');
  });
});
