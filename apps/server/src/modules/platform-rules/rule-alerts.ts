/**
 * Platform-rule alerts under `/rule-engine/v1` (spec §7 "alerts dashboard, summary, history";
 * docs/platform-rules.md "Alerts"): the alerts section's lists and statistics narrowed to alerts of kind `platform`
 * (optionally one rule), with the same visibility (alerts/access.ts) — a vendor sees its tenant's.
 */
import type {
  TAlertDashboard,
  TAlertList,
  TPlatformAlertDashboardQuery,
  TPlatformAlertQuery,
  TPlatformAlertSummary,
  TPlatformAlertSummaryQuery,
} from '@tessera/contracts';
import { count, desc, sql } from 'drizzle-orm';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { alerts } from '../../db/schema.js';
import { alertFilterWhere, checkedAlertRange } from '../alerts/filters.js';
import { latestAlerts, listAlerts } from '../alerts/list-alerts.js';
import { alertStatistics } from '../alerts/statistics.js';

/** GET alerts/dashboard: the latest platform-rule alerts (at most ALERTS_LATEST_MAX), newest first. */
export function platformAlertDashboard(db: Db, principal: TPrincipal, q: TPlatformAlertDashboardQuery): Promise<TAlertDashboard> {
  return latestAlerts(db, principal, { kind: 'platform', ...(q.rule_id !== undefined ? { id: q.rule_id } : {}) });
}

/** GET alerts/history: a page of platform-rule alerts matching `q`. @throws AppError 400 for a bad range. */
export function platformAlertHistory(db: Db, principal: TPrincipal, q: TPlatformAlertQuery): Promise<TAlertList> {
  return listAlerts(db, principal, { ...q, rule_kind: 'platform' });
}

/**
 * GET alerts/summary: the statistics of platform-rule alerts first seen in the range, how many are still active,
 * and per rule (most alerts first, at most 20). @throws AppError 400 for a bad range.
 */
export async function platformAlertSummary(db: Db, principal: TPrincipal, q: TPlatformAlertSummaryQuery): Promise<TPlatformAlertSummary> {
  const query = { ...q, rule_kind: 'platform' as const };
  const where = alertFilterWhere(principal, query, checkedAlertRange(query));
  const isActive = sql<number>`count(*) filter (where ${alerts.state} <> 'resolved')`.mapWith(Number);
  const [statistics, [totals], byRule] = await Promise.all([
    alertStatistics(db, principal, query),
    db.select({ active: isActive }).from(alerts).where(where),
    db
      .select({ id: alerts.ruleId, name: sql<string>`max(${alerts.ruleName})`, count: count(), active: isActive })
      .from(alerts)
      .where(where)
      .groupBy(alerts.ruleId)
      .orderBy(desc(count()), alerts.ruleId)
      .limit(20),
  ]);
  return { ...statistics, active: totals?.active ?? 0, by_rule: byRule };
}
