/**
 * Bucket choice of v2 timeseries ("a response never holds more than ~2× the requested width in points,
 * whatever the range"): the smallest nice size ≥ range / width, and the cheapest table that can answer it.
 */
import { NICE_BUCKETS_MS, ROLLUP_BUCKETS_MS, type TTimeseriesResponse } from '@tessera/contracts';

/** Where a bucketed query reads: raw rows, or a rollup whose bucket size divides `bucketMs`. */
export interface TBucketPlan {
  bucketMs: number;
  source: TTimeseriesResponse['source'];
  /** The rollup's bucket size (0 for raw). */
  sourceBucketMs: number;
  /** The whole output buckets covering [startTs, endTs]: first bucket start, last bucket end (inclusive). */
  from: number;
  to: number;
}

const [MINUTE, HOUR] = ROLLUP_BUCKETS_MS;
const LARGEST = NICE_BUCKETS_MS[NICE_BUCKETS_MS.length - 1];

/**
 * Plans the query of [startTs, endTs] in at most `width` (+1 for alignment) buckets. Sizes past the largest
 * nice size are whole multiples of it. Raw rows below 1 min, the 1-min rollup up to 1 h, the 1-h rollup above.
 */
export function planBuckets(startTs: number, endTs: number, width: number): TBucketPlan {
  const wanted = Math.max(1, Math.ceil((endTs - startTs) / width));
  const bucketMs = NICE_BUCKETS_MS.find((b) => b >= wanted) ?? Math.ceil(wanted / LARGEST) * LARGEST;
  return planFixedBuckets(startTs, endTs, bucketMs);
}

/**
 * Plans the query of [startTs, endTs] in buckets of `bucketMs` (one of NICE_BUCKETS_MS or a multiple of the largest):
 * raw rows below 1 min, the 1-min rollup up to 1 h, the 1-h rollup above.
 */
export function planFixedBuckets(startTs: number, endTs: number, bucketMs: number): TBucketPlan {
  const source = bucketMs < MINUTE ? 'raw' : bucketMs < HOUR ? 'rollup_1m' : 'rollup_1h';
  const sourceBucketMs = source === 'raw' ? 0 : source === 'rollup_1m' ? MINUTE : HOUR;
  const from = Math.floor(startTs / bucketMs) * bucketMs;
  const to = Math.floor(endTs / bucketMs) * bucketMs + bucketMs - 1;
  return { bucketMs, source, sourceBucketMs, from, to };
}
