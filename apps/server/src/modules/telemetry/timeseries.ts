/**
 * v2 (and v1) timeseries (spec §7 `/frontstage-ts/v1/v2/timeseries`, §5 history range): one device and key,
 * bucketed by {@link planBuckets}, aggregated by `fn` per value slot v1..v3, optionally as bucket-to-bucket
 * differences. Buckets without data are left out (no gap filling).
 */
import { HISTORY_RANGE_MAX_DAYS, type TAggFn, type TTimeseriesQuery, type TTimeseriesResponse } from '@tessera/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { badRequest, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { rowsOf, type Db } from '../../db/client.js';
import { exactSum, toFloat8Saturated } from '../../db/exact-sum.js';
import { devices } from '../../db/schema.js';
import { devicePermissionDenied, holdsPermission, visibleDevicesCondition } from '../devices/access.js';
import { planBuckets, type TBucketPlan } from './buckets.js';
import { assertRange } from './range.js';
import { orderedRawPoints } from '../telemetry-store/raw-points.js';

/** A row of {@link bucketSql}: bucket start and one aggregate per value slot. */
export type TSlotRow = { b: number | string; x1: number | null; x2: number | null; x3: number | null };

/**
 * Answers a timeseries query for a device `principal` may see, in one round trip: the device (visibility and
 * permission) and its buckets are one query, since a dashboard asks for many series at once and each round trip
 * waits for the database to be scheduled.
 * @throws AppError 404 for an invisible device, 403 DEVICE_PERMISSION_DENIED without view_history; 400 for start ≥ end or a range over HISTORY_RANGE_MAX_DAYS.
 */
export async function queryTimeseries(db: Db, principal: TPrincipal, q: TTimeseriesQuery): Promise<TTimeseriesResponse> {
  assertRange(q.startTs, q.endTs, HISTORY_RANGE_MAX_DAYS);
  const plan = planBuckets(q.startTs, q.endTs, q.width);
  // One row per bucket, or one row without a bucket when the device has none in range (or lacks the permission);
  // no row when the device is not visible.
  const rows = rowsOf<Omit<TSlotRow, 'b'> & { b: TSlotRow['b'] | null; tangram_id: string; permitted: boolean }>(
    await db.execute(sql`with d as (
        select ${devices.id} as id, ${devices.tangramId} as tangram_id, ${holdsPermission(principal, 'view_history')} as permitted
        from ${devices} where ${devices.tangramId} = ${q.tangramId.toUpperCase()} and ${visibleDevicesCondition(principal)} limit 1)
      select d.tangram_id, d.permitted, s.b, s.x1, s.x2, s.x3
      from d left join lateral (${bucketSql(sql`d.id`, q.key, q.fn, plan)}) s on d.permitted
      order by s.b`),
  );
  if (rows.length === 0) throw notFound('device');
  if (!rows[0].permitted) throw devicePermissionDenied('view_history');
  const values = rows.filter((r) => r.b !== null).map((r) => ({ ts: Number(r.b), vs: [r.x1, r.x2, r.x3].map(numOrNull) }));
  if (values.length === 0) await assertNumericKey(db, q.tangramId, q.key);
  return {
    tangramId: rows[0].tangram_id,
    key: q.key,
    fn: q.fn,
    bucket_ms: plan.bucketMs,
    source: plan.source,
    points: q.diff ? differences(values) : values,
  };
}

/**
 * Throws when `key` of the device's project is not numeric: such a key has no rollups, nothing to aggregate
 * (docs/decisions/telemetry.md "Values that are not numbers"). Asked only when a series came back empty.
 * @throws AppError 400 naming the raw-points call to use instead.
 */
async function assertNumericKey(db: Db, tangramId: string, key: string): Promise<void> {
  const [row] = rowsOf<{ value_type: string }>(
    await db.execute(sql`select s.value_type from ${devices} d join project_sensors s on s.project_id = d.project_id
      where d.tangram_id = ${tangramId.toUpperCase()} and s.key = ${key}`),
  );
  if (row && row.value_type !== 'number')
    throw badRequest(`${key} holds ${row.value_type} values, which have no rollups: read its points with telemetries/value/timeseries`);
}

/**
 * Each point minus the previous one (slot by slot); the first point has no predecessor and is null. A difference
 * beyond the largest double (e.g. 1.7e308 − −1.7e308) saturates at ±Number.MAX_VALUE, as sums do.
 */
export function differences(points: { ts: number; vs: (number | null)[] }[]): { ts: number; vs: (number | null)[] }[] {
  return points.map((p, i) => ({
    ts: p.ts,
    vs: p.vs.map((v, s) => {
      const prev = i === 0 ? null : points[i - 1].vs[s];
      if (v === null || prev === null) return null;
      const d = v - prev;
      return Number.isFinite(d) ? d : Math.sign(d) * Number.MAX_VALUE;
    }),
  }));
}

/**
 * The aggregate of slot `n` (1..3) for `fn`, over raw rows or over rollup rows (avg = sum / count there). Sums and
 * averages are computed in numeric (db/exact-sum.ts), so huge values cannot overflow; a sum beyond the largest
 * double answers ±Number.MAX_VALUE.
 */
function slotExpr(fn: TAggFn, n: number, raw: boolean): SQL {
  const v = sql.raw(`v${n}`);
  if (raw) {
    if (fn === 'count') return sql`nullif(count(${v}), 0)::float8`;
    if (fn === 'sum') return toFloat8Saturated(exactSum(v));
    if (fn === 'avg') return toFloat8Saturated(sql`${exactSum(v)} / nullif(count(${v}), 0)`);
    return sql`${sql.raw(fn)}(${v})::float8`;
  }
  const [mn, mx, sm] = ['min', 'max', 'sum'].map((f) => sql.raw(`v${n}_${f}`));
  switch (fn) {
    case 'avg':
      return toFloat8Saturated(sql`sum(${sm}) / nullif(sum(count), 0)`);
    case 'min':
      return sql`min(${mn})::float8`;
    case 'max':
      return sql`max(${mx})::float8`;
    case 'sum':
      return toFloat8Saturated(sql`sum(${sm})`);
    case 'count':
      return sql`(case when sum(${sm}) is null then null else sum(count) end)::float8`;
  }
}

/**
 * The bucketed query of one device (its id, or an SQL expression of it) and key: rows `{ b, x1, x2, x3 }` (bucket start in epoch ms, the aggregate of each
 * value slot) for the buckets of `plan`, oldest first; buckets without data are left out.
 */
export function bucketSql(deviceId: number | SQL, key: string, fn: TAggFn, plan: TBucketPlan): SQL {
  const raw = plan.source === 'raw';
  const slots = sql`${slotExpr(fn, 1, raw)} as x1, ${slotExpr(fn, 2, raw)} as x2, ${slotExpr(fn, 3, raw)} as x3`;
  const b = sql`${plan.bucketMs}::bigint`;
  if (raw) {
    return sql`select (ts / ${b}) * ${b} as b, ${slots} from ${orderedRawPoints(deviceId, key, plan.from, plan.to)} as p
      group by 1 order by 1`;
  }
  return sql`select (bucket_ts / ${b}) * ${b} as b, ${slots} from telemetry_rollup
    where device_id = ${deviceId} and key = ${key} and bucket_ms = ${plan.sourceBucketMs}
      and bucket_ts between ${plan.from} and ${plan.to}
    group by 1 order by 1`;
}

/** A numeric column as a number (PGlite and pg may return numerics as strings). */
export function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}
