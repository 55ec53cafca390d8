/**
 * The analytics summary (spec §2 `analytics`, §5 "at most 5 devices", §7 `/frontstage-ts/v1` statistics): count,
 * min, max, average, standard deviation and the 5th/50th/95th percentiles of each compared device's key (its first
 * value, v1) over a range of at most HISTORY_RANGE_MAX_DAYS. docs/analytics.md.
 *
 * Count, min, max and average are always exact. The spread figures are exact over the stored points while a series
 * holds at most STATS_EXACT_POINTS_MAX of them; a longer series is summarised from its hourly rollups (range widened
 * to whole hours, spread of the hourly averages), so 5 devices × 90 days costs a few thousand rollup rows per series
 * instead of millions of points. Percentiles are `percentile_disc` (a stored value, no interpolation that could
 * overflow); sums and deviations are computed in numeric (db/exact-sum.ts), so no finite double can make them fail.
 */
import {
  HISTORY_RANGE_MAX_DAYS,
  ROLLUP_BUCKETS_MS,
  STATS_EXACT_POINTS_MAX,
  type TSeriesStatistics,
  type TStatisticsSummary,
  type TStatisticsSummaryQuery,
} from '@tessera/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { TPrincipal } from '../../core/principal.js';
import { rowsOf, type Db } from '../../db/client.js';
import { exactSum, toFloat8Saturated } from '../../db/exact-sum.js';
import { sqlArray } from '../../db/sql-helpers.js';
import { deviceFor } from '../devices/access.js';
import { assertRange } from './range.js';
import { numOrNull } from './timeseries.js';
import { orderedRawPoints } from '../telemetry-store/raw-points.js';

const HOUR_MS = ROLLUP_BUCKETS_MS[1];

/** A row of the summary queries: `n, mn, mx, av` and the {@link spread} columns. */
export type TSummaryRow = {
  n: number | string | null;
  mn: number | null;
  mx: number | null;
  av: number | string | null;
  sd: number | string | null;
  p5: number | string | null;
  p50: number | string | null;
  p95: number | string | null;
};

/**
 * The summary of every device × key of `q` (devices then keys, in the order asked).
 * @throws AppError 400 for start ≥ end or a range over HISTORY_RANGE_MAX_DAYS; 404 for a device `principal` may not
 * see; 403 DEVICE_PERMISSION_DENIED without view_history on one of them.
 */
export async function statisticsSummary(db: Db, principal: TPrincipal, q: TStatisticsSummaryQuery): Promise<TStatisticsSummary> {
  assertRange(q.startTs, q.endTs, HISTORY_RANGE_MAX_DAYS);
  const found = [];
  for (const tangramId of q.tangramIds) found.push(await deviceFor(db, principal, tangramId, 'view_history'));
  const hourFrom = Math.floor(q.startTs / HOUR_MS) * HOUR_MS;
  const hourTo = Math.floor(q.endTs / HOUR_MS) * HOUR_MS;
  const counted = rowsOf<{ device_id: number; key: string; n: number | string }>(
    await db.execute(sql`select device_id, key, sum(count) as n from telemetry_rollup
      where device_id = any(${sqlArray(found.map((d) => d.id))}::int[]) and key = any(${sqlArray(q.keys)}::text[])
        and bucket_ms = ${HOUR_MS} and bucket_ts between ${hourFrom} and ${hourTo}
      group by device_id, key`),
  );
  const pointsOf = new Map(counted.map((r) => [`${r.device_id}\u0000${r.key}`, Number(r.n)]));
  const series = found.flatMap((d) => q.keys.map((key) => ({ device: d, key, points: pointsOf.get(`${d.id}\u0000${key}`) ?? 0 })));
  const data = await Promise.all(
    series.map(async ({ device, key, points }): Promise<TSeriesStatistics> => {
      const basis = points > STATS_EXACT_POINTS_MAX ? 'hourly' : 'points';
      const query =
        basis === 'points' ? pointsSummarySql(device.id, key, q.startTs, q.endTs) : hourlySummarySql(device.id, key, hourFrom, hourTo);
      const [row] = rowsOf<TSummaryRow>(await db.execute(query));
      return { tangramId: device.tangramId, key, basis, ...summaryFigures(row) };
    }),
  );
  return { data };
}

/** The figures of a summary row (all null, count 0, without a value). */
export function summaryFigures(row: TSummaryRow | undefined): Omit<TSeriesStatistics, 'tangramId' | 'key' | 'basis'> {
  return {
    count: Number(row?.n ?? 0),
    min: numOrNull(row?.mn),
    max: numOrNull(row?.mx),
    avg: numOrNull(row?.av),
    stddev: numOrNull(row?.sd),
    p5: numOrNull(row?.p5),
    p50: numOrNull(row?.p50),
    p95: numOrNull(row?.p95),
  };
}

/**
 * The summary columns of float8 column `v` over the selected rows: `n, mn, mx, av` (average in numeric), and the
 * spread of `v` ({@link spread}).
 */
export function valueSummary(v: SQL): SQL {
  return sql`count(${v}) as n, min(${v}) as mn, max(${v}) as mx,
      ${toFloat8Saturated(sql`${exactSum(v)} / nullif(count(${v}), 0)`)} as av, ${spread(sql`${v}::text::numeric`)}`;
}

/** Spread figures of numeric expression `x`: population standard deviation and three stored-value percentiles. */
function spread(x: SQL): SQL {
  return sql`${toFloat8Saturated(sql`stddev_pop(${x})`)} as sd,
    (percentile_disc(0.05) within group (order by ${x}))::float8 as p5,
    (percentile_disc(0.5) within group (order by ${x}))::float8 as p50,
    (percentile_disc(0.95) within group (order by ${x}))::float8 as p95`;
}

/** Every stored v1 of the device's key in [from, to]. */
function pointsSummarySql(deviceId: number, key: string, from: number, to: number): SQL {
  return sql`select ${valueSummary(sql`v1`)}
    from ${orderedRawPoints(deviceId, key, from, to)} as p`;
}

/** The hourly rollups of the device's key whose hour starts in [hourFrom, hourTo]; spread of the hourly averages. */
function hourlySummarySql(deviceId: number, key: string, hourFrom: number, hourTo: number): SQL {
  return sql`select sum(count) as n, min(v1_min) as mn, max(v1_max) as mx,
      ${toFloat8Saturated(sql`sum(v1_sum) / nullif(sum(count), 0)`)} as av, ${spread(sql`(v1_sum / nullif(count, 0))`)}
    from telemetry_rollup
    where device_id = ${deviceId} and key = ${key} and bucket_ms = ${HOUR_MS} and bucket_ts between ${hourFrom} and ${hourTo}
      and v1_sum is not null`;
}
