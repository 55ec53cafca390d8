import { describe, expect, it } from 'vitest';
import { zoneHoursRows } from './zoneHours';

describe('hours per zone rows', () => {
  it('lists A to D with each share of the time with data', () => {
    expect(zoneHoursRows({ A: 3, B: 0.5, C: 0.5, D: 0 })).toEqual([
      { zone: 'A', hours: 3, share: 0.75 },
      { zone: 'B', hours: 0.5, share: 0.125 },
      { zone: 'C', hours: 0.5, share: 0.125 },
      { zone: 'D', hours: 0, share: 0 },
    ]);
  });

  it('gives no share when there is no data', () => {
    expect(zoneHoursRows({ A: 0, B: 0, C: 0, D: 0 }).map((r) => r.share)).toEqual([0, 0, 0, 0]);
  });
});
