/**
 * A platform telemetry's stored points (a point a minute; docs/platform-telemetry.md, docs/analytics.md): the series
 * bucketed like history charts, and exact statistics over a range. Scoped to the caller's tenant through ownRow.
 */
import {
  HISTORY_RANGE_MAX_DAYS,
  PLATFORM_TELEMETRY_POINT_MS,
  type TPlatformTelemetrySeries,
  type TPlatformTelemetrySeriesQuery,
  type TPlatformTelemetryStatistics,
  type TPlatformTelemetryStatisticsQuery,
} from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import type { TPrincipal } from '../../core/principal.js';
import { rowsOf, type Db } from '../../db/client.js';
import { platformTelemetryPoints } from '../../db/schema.js';
import { planBuckets } from '../telemetry/buckets.js';
import { assertRange } from '../telemetry/range.js';
import { summaryFigures, type TSummaryRow, valueSummary } from '../telemetry/statistics.js';
import { numOrNull } from '../telemetry/timeseries.js';
import { ownRow } from './service.js';

/**
 * GET {id}/timeseries: the stored series (a point a minute) bucketed like history charts, at most
 * HISTORY_RANGE_MAX_DAYS.
 * @throws AppError 404 for another tenant's; 400 for a bad range.
 */
export async function platformTelemetrySeries(
  db: Db,
  principal: TPrincipal,
  id: number,
  q: TPlatformTelemetrySeriesQuery,
): Promise<TPlatformTelemetrySeries> {
  assertRange(q.startTs, q.endTs, HISTORY_RANGE_MAX_DAYS);
  await ownRow(db, principal, id);
  const plan = planBuckets(q.startTs, q.endTs, q.width);
  const bucketMs = Math.max(plan.bucketMs, PLATFORM_TELEMETRY_POINT_MS);
  const b = sql`${bucketMs}::bigint`;
  const agg = q.fn === 'count' ? sql`count(value)::float8` : sql.raw(`${q.fn}(value)::float8`);
  const rows = rowsOf<{ b: number | string; v: number | null }>(
    await db.execute(sql`select (ts / ${b}) * ${b} as b, ${agg} as v from ${platformTelemetryPoints}
      where platform_telemetry_id = ${id} and ts between ${Math.floor(q.startTs / bucketMs) * bucketMs} and ${q.endTs}
      group by 1 order by 1`),
  );
  return { id, bucket_ms: bucketMs, points: rows.map((r) => ({ ts: Number(r.b), vs: [numOrNull(r.v)] })) };
}

/**
 * GET {id}/statistics: count, min, max, average, standard deviation and percentiles of the stored points (a point a
 * minute) in the range, exact (docs/analytics.md).
 * @throws AppError 404 for another tenant's; 400 for a bad range.
 */
export async function platformTelemetryStatistics(
  db: Db,
  principal: TPrincipal,
  id: number,
  q: TPlatformTelemetryStatisticsQuery,
): Promise<TPlatformTelemetryStatistics> {
  assertRange(q.startTs, q.endTs, HISTORY_RANGE_MAX_DAYS);
  await ownRow(db, principal, id);
  const [row] = rowsOf<TSummaryRow>(
    await db.execute(sql`select ${valueSummary(sql`value`)} from ${platformTelemetryPoints}
      where platform_telemetry_id = ${id} and ts between ${q.startTs} and ${q.endTs}`),
  );
  return { id, ...summaryFigures(row) };
}
