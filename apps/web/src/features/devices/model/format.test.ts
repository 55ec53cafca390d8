import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatDuration, formatLocalTime, formatSeconds, formatValues } from './format';

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

describe('formatDuration', () => {
  it('says a duration in its largest whole unit, per locale', () => {
    expect(formatDuration(900_000, 'en')).toBe('15 minutes');
    expect(formatDuration(3_600_000, 'en')).toBe('1 hour');
    expect(formatDuration(7 * 86_400_000, 'en')).toBe('7 days');
    expect(formatDuration(90_000, 'en')).toBe('90 seconds');
    expect(formatDuration(1_800_000, 'zh-TW')).toBe('30 分鐘');
  });
});
