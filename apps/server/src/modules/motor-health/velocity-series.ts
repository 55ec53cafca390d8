/**
 * The vibration velocity of a device over a range, read with the history chart's bucketed reader (telemetry/
 * timeseries.ts `bucketSql`, raw rows or a rollup chosen by bucket size as the history routes do): each bucket's
 * velocity is the worst axis of the axes' averages (mm/s RMS).
 */
import { MOTOR_HEALTH_KEY, NICE_BUCKETS_MS, type TVelocitySample, worstAxisVelocity } from '@tessera/contracts';
import { rowsOf, type Db } from '../../db/client.js';
import { planFixedBuckets, type TBucketPlan } from '../telemetry/buckets.js';
import { bucketSql, numOrNull, type TSlotRow } from '../telemetry/timeseries.js';

/** At most this many buckets feed the hours per zone (90 days → 5-min buckets, ≤ 20 days → 1-min buckets). */
export const HOURS_MAX_BUCKETS = 30_000;
const MINUTE_MS = 60_000;

/** The buckets of `plan` that hold a vibration value, oldest first, as velocity samples at each bucket's start. */
export async function readVelocitySeries(db: Db, deviceId: number, plan: TBucketPlan): Promise<TVelocitySample[]> {
  const rows = rowsOf<TSlotRow>(await db.execute(bucketSql(deviceId, MOTOR_HEALTH_KEY, 'avg', plan)));
  return rows.flatMap((r) => {
    const velocity = worstAxisVelocity([r.x1, r.x2, r.x3].map(numOrNull));
    return velocity === null ? [] : [{ ts: Number(r.b), velocity_mm_s: velocity }];
  });
}

/**
 * The plan the hours per zone are counted from: the chart's own plan when its buckets are at most the hours' size
 * (short ranges: no second query), else buckets of the smallest nice size ≥ 1 min that keeps [startTs, endTs] within
 * {@link HOURS_MAX_BUCKETS} — fine enough that an excursion of a few minutes is not averaged away on a long range.
 */
export function planHoursBuckets(startTs: number, endTs: number, chartPlan: TBucketPlan): TBucketPlan {
  const wanted = Math.max(MINUTE_MS, Math.ceil((endTs - startTs) / HOURS_MAX_BUCKETS));
  const bucketMs = NICE_BUCKETS_MS.find((b) => b >= wanted) ?? wanted;
  return chartPlan.bucketMs <= bucketMs ? chartPlan : planFixedBuckets(startTs, endTs, bucketMs);
}
