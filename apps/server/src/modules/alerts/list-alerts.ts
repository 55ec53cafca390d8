/**
 * Reading alerts (spec §7 `alerts`, `dashboard/alerts`; §9 "Alerts show latest 100"): the history list, filtered and
 * paged, and the dashboard's latest alerts. Newest first: by first seen, then id.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import { ALERTS_LATEST_MAX, type TAlertDashboard, type TAlertList, type TAlertListQuery, type TAlertRuleKind } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { alerts } from '../../db/schema.js';
import { visibleAlertsCondition } from './access.js';
import { selectAlertViews } from './alert-view.js';
import { alertFilterWhere, checkedAlertRange } from './filters.js';
import { presentAlert } from './presenters.js';

const newestFirst = [desc(alerts.firstSeenAt), desc(alerts.id)];

/**
 * A page of the alerts `principal` may see matching `q`.
 * @throws AppError 400 for a bad range or one over ALERT_RANGE_MAX_DAYS.
 */
export async function listAlerts(db: Db, principal: TPrincipal, q: TAlertListQuery): Promise<TAlertList> {
  const where = alertFilterWhere(principal, q, checkedAlertRange(q));
  return pageOf(
    q,
    db.select({ total: count() }).from(alerts).where(where),
    (limit, offset) =>
      selectAlertViews(db)
        .where(where)
        .orderBy(...newestFirst)
        .limit(limit)
        .offset(offset),
    presentAlert,
  );
}

/**
 * The latest ALERTS_LATEST_MAX alerts `principal` may see, any state, newest first; `rules` narrows to one rule
 * kind (and one rule of it).
 */
export async function latestAlerts(db: Db, principal: TPrincipal, rules?: { kind: TAlertRuleKind; id?: number }): Promise<TAlertDashboard> {
  const rows = await selectAlertViews(db)
    .where(
      and(
        visibleAlertsCondition(principal),
        rules ? eq(alerts.ruleKind, rules.kind) : undefined,
        rules?.id !== undefined ? eq(alerts.ruleId, rules.id) : undefined,
      ),
    )
    .orderBy(...newestFirst)
    .limit(ALERTS_LATEST_MAX);
  return { data: rows.map(presentAlert) };
}
