import { DAY_MS, NICE_BUCKETS_MS } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { planBuckets } from './buckets.js';
import { differences } from './timeseries.js';

const T0 = Date.UTC(2026, 0, 1);

describe('planBuckets', () => {
  it('picks the smallest nice size ≥ range / width and the matching source', () => {
    expect(planBuckets(T0, T0 + 90 * DAY_MS, 600)).toMatchObject({
      bucketMs: 6 * 3_600_000,
      source: 'rollup_1h',
      sourceBucketMs: 3_600_000,
    });
    expect(planBuckets(T0, T0 + 2 * 3_600_000, 600)).toMatchObject({ bucketMs: 30_000, source: 'raw', sourceBucketMs: 0 });
    expect(planBuckets(T0, T0 + 2 * 3_600_000, 60)).toMatchObject({ bucketMs: 300_000, source: 'rollup_1m' });
    expect(planBuckets(T0, T0 + 600_000, 10)).toMatchObject({ bucketMs: 60_000, source: 'rollup_1m' });
    expect(planBuckets(T0, T0 + 10, 600)).toMatchObject({ bucketMs: 1_000, source: 'raw' });
  });

  it('never plans more than width + 1 buckets, for any range and width', () => {
    for (const range of [1, 999, 61_000, 3_600_001, 7 * DAY_MS + 5, 31 * DAY_MS, 90 * DAY_MS]) {
      for (const width of [10, 77, 600, 5000]) {
        const start = T0 + 12_345;
        const p = planBuckets(start, start + range, width);
        expect((p.to + 1 - p.from) / p.bucketMs).toBeLessThanOrEqual(width + 1);
        expect(p.from).toBeLessThanOrEqual(start);
        expect(p.to).toBeGreaterThanOrEqual(start + range);
      }
    }
  });

  it('only uses sizes made of whole rollup buckets', () => {
    for (const b of NICE_BUCKETS_MS) {
      const { source, sourceBucketMs } = planBuckets(0, b * 10, 10);
      if (source !== 'raw') expect(b % sourceBucketMs).toBe(0);
    }
  });
});

describe('differences', () => {
  it('subtracts the previous point slot by slot; the first point and absent values are null', () => {
    const pts = [
      { ts: 0, vs: [1, 5, null] },
      { ts: 1, vs: [4, null, 2] },
      { ts: 2, vs: [3, 7, 3] },
    ];
    expect(differences(pts).map((p) => p.vs)).toEqual([
      [null, null, null],
      [3, null, null],
      [-1, null, 1],
    ]);
  });
});
