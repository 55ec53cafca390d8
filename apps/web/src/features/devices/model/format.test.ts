import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatLocalTime, formatSeconds, formatValues } from './format';

describe('formatting', () => {
  it('formats values per locale with at most three decimals and a dash for a missing value', () => {
    expect(formatValues([1234.56789, null], 'en')).toBe('1,234.568 / —');
    expect(formatValues([0.5], 'zh-TW')).toBe('0.5');
  });
  it('shows times in local time, and a dash for none', () => {
    const ts = new Date(2026, 4, 6, 7, 8, 9).getTime();
    expect(formatLocalTime(ts)).toBe('2026-05-06 07:08:09');
    expect(formatLocalTime(null)).toBe('—');
    expect(dayjs(ts).isValid()).toBe(true);
  });
  it('shows periods in seconds', () => {
    expect(formatSeconds(60_000, 'en')).toBe('60');
    expect(formatSeconds(1_500, 'en')).toBe('1.5');
  });
});
