/**
 * The statistics page's table (spec §7 `statistics/detail`): one row per (device, rule, level) with the number of its
 * alerts first seen in the range and their summed counts; most alerts first, paged. The rule's name is the one of
 * its latest alert (a rule renamed meanwhile shows its current name once it fires again).
 */
import { count, desc, eq, max, sql, sum } from 'drizzle-orm';
import type { TAlertDetail, TAlertDetailQuery } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { alerts, devices, products, projects } from '../../db/schema.js';
import { alertFilterWhere, checkedAlertRange } from './filters.js';

/**
 * A page of detail rows of the alerts `principal` may see matching `q`.
 * @throws AppError 400 for a bad range or one over ALERT_RANGE_MAX_DAYS.
 */
export async function alertStatisticsDetail(db: Db, principal: TPrincipal, q: TAlertDetailQuery): Promise<TAlertDetail> {
  const where = alertFilterWhere(principal, q, checkedAlertRange(q));
  const groupBy = [
    alerts.deviceId,
    alerts.ruleKind,
    alerts.ruleId,
    alerts.ruleIndex,
    alerts.level,
    alerts.projectId,
    alerts.productId,
  ] as const;
  const alertsN = count();
  const rowsOf = (limit: number, offset: number) =>
    db
      .select({
        deviceId: alerts.deviceId,
        tangramId: max(devices.tangramId),
        deviceName: max(devices.name),
        projectId: alerts.projectId,
        projectName: max(projects.name),
        productId: alerts.productId,
        productName: max(products.name),
        ruleKind: alerts.ruleKind,
        ruleId: alerts.ruleId,
        ruleIndex: alerts.ruleIndex,
        ruleName: sql<string>`(array_agg(${alerts.ruleName} order by ${alerts.firstSeenAt} desc))[1]`,
        level: alerts.level,
        alerts: alertsN,
        occurrences: sum(alerts.count).mapWith(Number),
        lastSeenAt: max(alerts.lastSeenAt),
      })
      .from(alerts)
      .innerJoin(devices, eq(devices.id, alerts.deviceId))
      .innerJoin(projects, eq(projects.id, alerts.projectId))
      .innerJoin(products, eq(products.id, alerts.productId))
      .where(where)
      .groupBy(...groupBy)
      .orderBy(desc(alertsN), desc(max(alerts.lastSeenAt)), alerts.deviceId, alerts.ruleId, alerts.ruleIndex)
      .limit(limit)
      .offset(offset);
  const groups = db
    .select({ one: sql`1`.as('one') })
    .from(alerts)
    .where(where)
    .groupBy(...groupBy)
    .as('groups');
  return pageOf(q, db.select({ total: count() }).from(groups), rowsOf, (r) => ({
    device: { id: r.deviceId, tangram_id: r.tangramId ?? '', name: r.deviceName ?? '' },
    project: { id: r.projectId, name: r.projectName ?? '' },
    product: { id: r.productId, name: r.productName ?? '' },
    rule: { kind: r.ruleKind, id: r.ruleId, index: r.ruleIndex, name: r.ruleName },
    level: r.level,
    alerts: r.alerts,
    occurrences: r.occurrences,
    last_seen_at: Number(r.lastSeenAt),
  }));
}
