/**
 * The activation rate (spec §7 `/frontstage-ts/v1/statistics/activation-rate`, drawn on the analytics page): how
 * many of the tenant's registered devices have reported at least once (`devices.first_seen_at`, set by ingest), for
 * each local day of a range of at most HISTORY_RANGE_MAX_DAYS (counts at the day's end), and per product and per
 * project at the range's end. docs/analytics.md.
 */
import { DAY_MS, HISTORY_RANGE_MAX_DAYS, type TActivationRate, type TActivationRateQuery } from '@tessera/contracts';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { TPrincipal } from '../../core/principal.js';
import { rowsOf, type Db } from '../../db/client.js';
import { devices, products, projects } from '../../db/schema.js';
import { sqlArray } from '../../db/sql-helpers.js';
import { visibleDevicesCondition } from '../devices/access.js';
import { assertRange } from './range.js';

/**
 * The activation rate of the devices `principal` may see over `q`'s range.
 * @throws AppError 400 for start ≥ end or a range over HISTORY_RANGE_MAX_DAYS.
 */
export async function activationRate(db: Db, principal: TPrincipal, q: TActivationRateQuery): Promise<TActivationRate> {
  assertRange(q.startTs, q.endTs, HISTORY_RANGE_MAX_DAYS);
  const offsetMs = q.utc_offset_min * 60_000;
  const first = Math.floor((q.startTs + offsetMs) / DAY_MS);
  const last = Math.floor((q.endTs + offsetMs) / DAY_MS);
  const dayStarts = Array.from({ length: last - first + 1 }, (_, i) => (first + i) * DAY_MS - offsetMs);
  const visible = visibleDevicesCondition(principal);
  // A device counts at a moment when it was registered by then; activated when it had also reported by then.
  const registeredBy = (t: number) => sql<number>`count(*) filter (where ${devices.createdAt} <= ${t})::int`;
  const activatedBy = (t: number) =>
    sql<number>`count(*) filter (where ${devices.createdAt} <= ${t} and ${devices.firstSeenAt} <= ${t})::int`;
  const groupCounts = { registered: registeredBy(q.endTs), activated: activatedBy(q.endTs) };
  const [days, byProduct, byProject] = await Promise.all([
    db.execute(sql`select d.day_start,
        count(${devices.id}) filter (where ${devices.createdAt} < d.day_start + ${DAY_MS})::int as registered,
        count(${devices.id}) filter (where ${devices.createdAt} < d.day_start + ${DAY_MS}
          and ${devices.firstSeenAt} < d.day_start + ${DAY_MS})::int as activated
      from unnest(${sqlArray(dayStarts)}::bigint[]) as d(day_start)
      left join ${devices} on ${visible}
      group by d.day_start order by d.day_start`),
    db
      .select({ id: products.id, name: products.name, ...groupCounts })
      .from(devices)
      .innerJoin(projects, eq(projects.id, devices.projectId))
      .innerJoin(products, eq(products.id, projects.productId))
      .where(and(visible, lte(devices.createdAt, q.endTs)))
      .groupBy(products.id, products.name)
      .orderBy(asc(products.name), asc(products.id)),
    db
      .select({ id: projects.id, name: projects.name, ...groupCounts })
      .from(devices)
      .innerJoin(projects, eq(projects.id, devices.projectId))
      .where(and(visible, lte(devices.createdAt, q.endTs)))
      .groupBy(projects.id, projects.name)
      .orderBy(asc(projects.name), asc(projects.id)),
  ]);
  const dayRows = rowsOf<{ day_start: number | string; registered: number; activated: number }>(days);
  return {
    from: q.startTs,
    to: q.endTs,
    by_day: dayRows.map((r) => ({ day: Number(r.day_start), registered: Number(r.registered), activated: Number(r.activated) })),
    by_product: byProduct,
    by_project: byProject,
  };
}
