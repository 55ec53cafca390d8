/**
 * Alert statistics (spec §7 `statistics`): counts of the alerts first seen in the range, by level, project, product
 * and day (stacked by level), for the statistics page's charts. Days start at the caller's local midnight
 * (`utc_offset_min`) and every day of the range is present, oldest first.
 */
import { count, desc, eq, sql } from 'drizzle-orm';
import { ALERT_LEVELS, DAY_MS, type TAlertLevel, type TAlertStatistics, type TAlertStatisticsQuery } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { alerts, products, projects } from '../../db/schema.js';
import { alertFilterWhere, checkedAlertRange } from './filters.js';

type TLevelCounts = Record<TAlertLevel, number>;
const zeroLevels = (): TLevelCounts => ({ remind: 0, early_warning: 0, alert: 0 });

/**
 * The statistics of the alerts `principal` may see matching `q`.
 * @throws AppError 400 for a bad range or one over ALERT_RANGE_MAX_DAYS.
 */
export async function alertStatistics(db: Db, principal: TPrincipal, q: TAlertStatisticsQuery): Promise<TAlertStatistics> {
  const range = checkedAlertRange(q);
  const where = alertFilterWhere(principal, q, range);
  const offsetMs = q.utc_offset_min * 60_000;
  // The local day number of each alert (floor, as fillDays does, also before 1970 in a western zone).
  // Integers inlined (validated by the schema), so select and group by are the same expression to PostgreSQL.
  const dayNo = sql<string>`floor((${alerts.firstSeenAt} + ${sql.raw(String(Math.trunc(offsetMs)))})::numeric / ${sql.raw(String(DAY_MS))})`;
  const [levels, byProject, byProduct, days] = await Promise.all([
    db.select({ level: alerts.level, n: count() }).from(alerts).where(where).groupBy(alerts.level),
    db
      .select({ id: projects.id, name: projects.name, count: count() })
      .from(alerts)
      .innerJoin(projects, eq(projects.id, alerts.projectId))
      .where(where)
      .groupBy(projects.id, projects.name)
      .orderBy(desc(count()), projects.name),
    db
      .select({ id: products.id, name: products.name, count: count() })
      .from(alerts)
      .innerJoin(products, eq(products.id, alerts.productId))
      .where(where)
      .groupBy(products.id, products.name)
      .orderBy(desc(count()), products.name),
    db.select({ day: dayNo, level: alerts.level, n: count() }).from(alerts).where(where).groupBy(dayNo, alerts.level),
  ]);
  const byLevel = zeroLevels();
  for (const r of levels) byLevel[r.level] = r.n;
  return {
    from: range.from,
    to: range.to,
    total: ALERT_LEVELS.reduce((sum, l) => sum + byLevel[l], 0),
    by_level: byLevel,
    by_project: byProject,
    by_product: byProduct,
    by_day: fillDays(range, offsetMs, days),
  };
}

function fillDays(range: { from: number; to: number }, offsetMs: number, rows: { day: string; level: TAlertLevel; n: number }[]) {
  const first = Math.floor((range.from + offsetMs) / DAY_MS);
  const last = Math.floor((range.to + offsetMs) / DAY_MS);
  const out = Array.from({ length: last - first + 1 }, (_, i) => ({ day: (first + i) * DAY_MS - offsetMs, ...zeroLevels() }));
  for (const r of rows) {
    const slot = out[Number(r.day) - first];
    if (slot) slot[r.level] = r.n;
  }
  return out;
}
