import { describe, expect, it } from 'vitest';
import { MACHINE_CLASSES } from './machine-class.js';
import {
  hoursInZones,
  MAX_HOLD_SPACINGS,
  typicalSpacingMs,
  worstAxisVelocity,
  ZMotorHealthQuery,
  ZONE_BOUNDARIES_MM_S,
  zoneOfVelocity,
} from './motor-health.js';

const MIN = 60_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

describe('ISO 10816-3 zone boundaries', () => {
  it('are those of Annex A, Tables A.1 and A.2 (mm/s RMS)', () => {
    expect(ZONE_BOUNDARIES_MM_S).toEqual({
      group1_rigid: { ab: 2.3, bc: 4.5, cd: 7.1 },
      group1_flexible: { ab: 3.5, bc: 7.1, cd: 11 },
      group2_rigid: { ab: 1.4, bc: 2.8, cd: 4.5 },
      group2_flexible: { ab: 2.3, bc: 4.5, cd: 7.1 },
    });
  });

  it.each(MACHINE_CLASSES)('puts a value exactly on each %s boundary in the worse zone, and just below it in the better', (cls) => {
    const { ab, bc, cd } = ZONE_BOUNDARIES_MM_S[cls];
    expect(zoneOfVelocity(0, cls)).toBe('A');
    expect(zoneOfVelocity(ab - 0.001, cls)).toBe('A');
    expect(zoneOfVelocity(ab, cls)).toBe('B');
    expect(zoneOfVelocity(bc - 0.001, cls)).toBe('B');
    expect(zoneOfVelocity(bc, cls)).toBe('C');
    expect(zoneOfVelocity(cd - 0.001, cls)).toBe('C');
    expect(zoneOfVelocity(cd, cls)).toBe('D');
    expect(zoneOfVelocity(1_000, cls)).toBe('D');
  });

  it('judges a reading by its worst axis', () => {
    expect(worstAxisVelocity([1.2, 3.4, 0.8])).toBe(3.4);
    expect(worstAxisVelocity([2.5, null, null])).toBe(2.5);
    expect(worstAxisVelocity([null, null, null])).toBeNull();
    expect(worstAxisVelocity([])).toBeNull();
  });
});

describe('hours in each zone', () => {
  const sample = (minute: number, velocity: number) => ({ ts: T0 + minute * MIN, velocity_mm_s: velocity });

  it('holds each value until the next sample, and the last for one typical spacing', () => {
    // Every 10 min: 1.0 (A), 2.0 (B), 3.0 (C), 5.0 (D), 1.0 (A) — group 2 rigid.
    const series = [sample(0, 1), sample(10, 2), sample(20, 3), sample(30, 5), sample(40, 1)];
    expect(hoursInZones(series, 'group2_rigid')).toEqual({ A: 20 / 60, B: 10 / 60, C: 10 / 60, D: 10 / 60 });
    // The same values for group 1 flexible: all below 3.5 but 5.0.
    expect(hoursInZones(series, 'group1_flexible')).toEqual({ A: 40 / 60, B: 10 / 60, C: 0, D: 0 });
  });

  it(`counts a gap for at most ${MAX_HOLD_SPACINGS} typical spacings`, () => {
    // Spacing 5 min; the device is silent 2 h after minute 10: that sample counts 15 min, not 2 h.
    const series = [sample(0, 3), sample(5, 3), sample(10, 3), sample(130, 1), sample(135, 1)];
    expect(typicalSpacingMs(series)).toBe(5 * MIN);
    const hours = hoursInZones(series, 'group2_rigid');
    expect(hours.C).toBeCloseTo((5 + 5 + 15) / 60, 12);
    expect(hours.A).toBeCloseTo((5 + 5) / 60, 12);
    expect(hours.B + hours.D).toBe(0);
  });

  it('spends no time anywhere for an empty series, and one spacing for a single sample', () => {
    expect(hoursInZones([], 'group2_rigid')).toEqual({ A: 0, B: 0, C: 0, D: 0 });
    expect(hoursInZones([sample(0, 2)], 'group2_rigid')).toEqual({ A: 0, B: 0, C: 0, D: 0 });
    expect(hoursInZones([sample(0, 2)], 'group2_rigid', { minSpacingMs: 30 * MIN })).toEqual({ A: 0, B: 0.5, C: 0, D: 0 });
  });

  it('counts only the time inside the window, and never more than it', () => {
    const series = Array.from({ length: 25 }, (_, h) => ({ ts: T0 + h * HOUR - 30 * MIN, velocity_mm_s: 1 }));
    const hours = hoursInZones(series, 'group2_rigid', { fromTs: T0, toTs: T0 + 24 * HOUR });
    expect(hours.A).toBeCloseTo(24, 12);
  });

  it('takes the bucket size as the least spacing, so sparse buckets are not cut short', () => {
    const series = [sample(0, 3), sample(1, 3), sample(2, 3), sample(30, 1)];
    // Median gap 1 min → gaps over 3 min are missing data; with 10-min buckets, up to 30 min is held.
    expect(hoursInZones(series, 'group2_rigid').C).toBeCloseTo(5 / 60, 12);
    expect(hoursInZones(series, 'group2_rigid', { minSpacingMs: 10 * MIN }).C).toBeCloseTo(30 / 60, 12);
  });
});

describe('ZMotorHealthQuery', () => {
  it('coerces the range from query text, with a 600-point chart by default', () => {
    expect(ZMotorHealthQuery.parse({ startTs: '1000', endTs: '2000' })).toEqual({ startTs: 1000, endTs: 2000, width: 600 });
    expect(ZMotorHealthQuery.safeParse({ startTs: '1000' }).success).toBe(false);
    expect(ZMotorHealthQuery.safeParse({ startTs: '1000', endTs: '2000', width: '9' }).success).toBe(false);
  });
});
