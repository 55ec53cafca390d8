import { describe, expect, it } from 'vitest';
import { ZTimeseriesQuery } from './telemetry.js';

const base = { tangramId: '5'.repeat(30), key: 'temperature', startTs: '1000', endTs: '2000' };

describe('ZTimeseriesQuery (query-string input)', () => {
  it('reads diff=false as false and diff=true as true (not JavaScript truthiness of the text)', () => {
    expect(ZTimeseriesQuery.parse({ ...base, diff: 'false' }).diff).toBe(false);
    expect(ZTimeseriesQuery.parse({ ...base, diff: 'true' }).diff).toBe(true);
    expect(ZTimeseriesQuery.parse(base).diff).toBe(false);
    expect(ZTimeseriesQuery.safeParse({ ...base, diff: 'maybe' }).success).toBe(false);
  });

  it('coerces times and width, with avg and 600 points by default', () => {
    const q = ZTimeseriesQuery.parse(base);
    expect(q).toMatchObject({ startTs: 1000, endTs: 2000, fn: 'avg', width: 600 });
    expect(ZTimeseriesQuery.safeParse({ ...base, width: '9' }).success).toBe(false);
    expect(ZTimeseriesQuery.safeParse({ ...base, fn: 'median' }).success).toBe(false);
  });
});
