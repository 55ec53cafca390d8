import { DAY_MS, HISTORY_RANGE_MAX_DAYS } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { clampRange, defaultRange, isDayDisabled, isRangeAllowed, MAX_RANGE_MS, MIN_ZOOM_MS, zoomedRange } from './range';

const NOW = Date.UTC(2026, 0, 31, 12);

describe('history ranges', () => {
  it('defaults to the last 24 hours', () => {
    expect(defaultRange(NOW)).toEqual([NOW - DAY_MS, NOW]);
  });

  it('allows exactly the limit and refuses one ms more or an empty range', () => {
    expect(MAX_RANGE_MS).toBe(HISTORY_RANGE_MAX_DAYS * DAY_MS);
    expect(isRangeAllowed(NOW - MAX_RANGE_MS, NOW)).toBe(true);
    expect(isRangeAllowed(NOW - MAX_RANGE_MS - 1, NOW)).toBe(false);
    expect(isRangeAllowed(NOW, NOW)).toBe(false);
  });

  it('greys out future days, and days past the limit from the chosen end', () => {
    expect(isDayDisabled(NOW + DAY_MS, undefined, NOW)).toBe(true);
    expect(isDayDisabled(NOW - 400 * DAY_MS, undefined, NOW)).toBe(false);
    expect(isDayDisabled(NOW - HISTORY_RANGE_MAX_DAYS * DAY_MS, NOW, NOW)).toBe(false);
    expect(isDayDisabled(NOW - (HISTORY_RANGE_MAX_DAYS + 1) * DAY_MS, NOW, NOW)).toBe(true);
    expect(isDayDisabled(NOW - 10 * DAY_MS, NOW - (HISTORY_RANGE_MAX_DAYS + 20) * DAY_MS, NOW)).toBe(true);
  });

  it('clamps a range over the limit by moving its start', () => {
    expect(clampRange(NOW - MAX_RANGE_MS - 5_000, NOW)).toEqual([NOW - MAX_RANGE_MS, NOW]);
    expect(clampRange(NOW - 1_000, NOW)).toEqual([NOW - 1_000, NOW]);
  });
});

describe('zoomedRange', () => {
  const range = [0, 1_000_000] as const;
  it('maps dataZoom percentages onto the shown range', () => {
    expect(zoomedRange(range, 25, 50)).toEqual([250_000, 500_000]);
  });
  it('is null when the whole range is shown', () => {
    expect(zoomedRange(range, 0, 100)).toBeNull();
  });
  it('never gets narrower than MIN_ZOOM_MS and stays inside the range', () => {
    const [from, to] = zoomedRange(range, 50, 50.0001) ?? [0, 0];
    expect(to - from).toBe(MIN_ZOOM_MS);
    const [a, b] = zoomedRange(range, 99.9999, 100) ?? [0, 0];
    expect(b).toBeLessThanOrEqual(range[1]);
    expect(a).toBeGreaterThanOrEqual(range[0]);
  });
});
