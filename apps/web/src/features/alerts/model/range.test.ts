import { ALERT_RANGE_MAX_DAYS, DAY_MS } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { clampAlertRange, isAlertDayDisabled, lastDays, rangeFromParams } from './range';

const NOW = Date.UTC(2026, 4, 1);

describe('alert ranges', () => {
  it('greys out future days and days past the limit from the picked end', () => {
    expect(isAlertDayDisabled(NOW + DAY_MS, undefined, NOW)).toBe(true);
    expect(isAlertDayDisabled(NOW - ALERT_RANGE_MAX_DAYS * DAY_MS, NOW, NOW)).toBe(false);
    expect(isAlertDayDisabled(NOW - (ALERT_RANGE_MAX_DAYS + 1) * DAY_MS, NOW, NOW)).toBe(true);
  });
  it('clamps a picked range to the limit', () => {
    expect(clampAlertRange(NOW - 100 * DAY_MS, NOW)).toEqual([NOW - ALERT_RANGE_MAX_DAYS * DAY_MS, NOW]);
    expect(clampAlertRange(NOW - DAY_MS, NOW)).toEqual([NOW - DAY_MS, NOW]);
  });
  it('reads the URL range and names what the server would refuse', () => {
    const fallback = lastDays(NOW, 7);
    expect(rangeFromParams(new URLSearchParams(''), fallback)).toEqual({ range: fallback, problem: null });
    expect(rangeFromParams(new URLSearchParams(`from=${NOW - ALERT_RANGE_MAX_DAYS * DAY_MS}&to=${NOW}`), fallback).problem).toBeNull();
    expect(rangeFromParams(new URLSearchParams(`from=${NOW - ALERT_RANGE_MAX_DAYS * DAY_MS - 1}&to=${NOW}`), fallback).problem).toBe(
      'too_long',
    );
    expect(rangeFromParams(new URLSearchParams(`from=${NOW}&to=${NOW}`), fallback).problem).toBe('order');
  });
});
