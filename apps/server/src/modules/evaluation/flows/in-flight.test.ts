import { describe, expect, it } from 'vitest';
import { InFlightRuns } from './in-flight.js';

describe('runs in flight per rule', () => {
  it('counts each tracked run until released, a second release of the same run counting nothing', () => {
    const runs = new InFlightRuns();
    const a = runs.track(7);
    const b = runs.track(7);
    runs.track(9);
    expect(runs.count(7)).toBe(2);
    expect(runs.ruleIds().sort()).toEqual([7, 9]);
    a();
    a();
    expect(runs.count(7)).toBe(1);
    b();
    expect(runs.count(7)).toBe(0);
    expect(runs.ruleIds()).toEqual([9]);
  });
});
