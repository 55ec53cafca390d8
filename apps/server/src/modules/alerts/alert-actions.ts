/**
 * Acknowledge and resolve by hand (docs/decisions/alerts.md "Acknowledge and resolve"): open → acknowledged,
 * open | acknowledged → resolved (`resolved_reason` manual). Any account that may see the alert may do either. The
 * state check is part of the UPDATE, so a concurrent change by the engine or another person cannot be overwritten;
 * the changed alert is then published live.
 */
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { AlertErrorCode, type TAlert, type TAlertState } from '@tessera/contracts';
import type { TAppContext } from '../../core/context.js';
import { conflict, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { alerts } from '../../db/schema.js';
import { visibleAlertsCondition } from './access.js';
import { findAlertView } from './alert-view.js';
import { presentAlert } from './presenters.js';
import { publishAlertChange } from './publish.js';

type TActionCtx = Pick<TAppContext, 'db' | 'bus' | 'log'>;

/**
 * Acknowledges open alert `id`.
 * @throws AppError 404 when the caller may not see it; 409 ALERT_ALREADY_ACKNOWLEDGED / ALERT_ALREADY_RESOLVED.
 */
export function acknowledgeAlert(ctx: TActionCtx, principal: TPrincipal, id: number): Promise<TAlert> {
  return transition(ctx, principal, id, ['open'], {
    state: 'acknowledged',
    acknowledgedAt: Date.now(),
    acknowledgedBy: principal.accountId,
  });
}

/**
 * Resolves open or acknowledged alert `id` by hand.
 * @throws AppError 404 when the caller may not see it; 409 ALERT_ALREADY_RESOLVED.
 */
export function resolveAlert(ctx: TActionCtx, principal: TPrincipal, id: number): Promise<TAlert> {
  return transition(ctx, principal, id, ['open', 'acknowledged'], {
    state: 'resolved',
    resolvedAt: Date.now(),
    resolvedBy: principal.accountId,
    resolvedReason: 'manual',
  });
}

async function transition(
  ctx: TActionCtx,
  principal: TPrincipal,
  id: number,
  from: TAlertState[],
  set: Partial<typeof alerts.$inferInsert>,
): Promise<TAlert> {
  const visible: SQL = and(eq(alerts.id, id), visibleAlertsCondition(principal))!;
  const changed = await ctx.db
    .update(alerts)
    .set(set)
    .where(and(visible, inArray(alerts.state, from)))
    .returning({ id: alerts.id });
  const view = await findAlertView(ctx.db, visible);
  if (!view) throw notFound('alert');
  if (changed.length === 0) {
    if (view.alert.state === 'resolved') throw conflict('the alert is already resolved', AlertErrorCode.AlreadyResolved);
    throw conflict('the alert is already acknowledged', AlertErrorCode.AlreadyAcknowledged);
  }
  await publishAlertChange(ctx, id);
  return presentAlert(view);
}
