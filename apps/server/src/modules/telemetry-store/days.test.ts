import { DAY_MS } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { dayPartitionName, dayStartOf, firstHotDay } from './days.js';

describe('UTC days of raw telemetry', () => {
  it('names a day partition by its UTC date and finds the midnight of any ts', () => {
    const noon = Date.UTC(2026, 0, 31, 12, 30);
    expect(dayStartOf(noon)).toBe(Date.UTC(2026, 0, 31));
    expect(dayStartOf(Date.UTC(2026, 0, 31))).toBe(Date.UTC(2026, 0, 31));
    expect(dayPartitionName(dayStartOf(noon))).toBe('telemetry_20260131');
  });

  it('keeps a day hot until it ended a hot window ago', () => {
    const now = Date.UTC(2026, 0, 3, 10);
    expect(firstHotDay(now, DAY_MS)).toBe(Date.UTC(2026, 0, 2)); // the 1st is cold, the 2nd hot until the 4th
    expect(firstHotDay(Date.UTC(2026, 0, 4), DAY_MS)).toBe(Date.UTC(2026, 0, 3));
    expect(firstHotDay(now, 7 * DAY_MS)).toBe(Date.UTC(2025, 11, 27));
  });
});
