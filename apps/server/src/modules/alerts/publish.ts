/**
 * Live alerts (docs/decisions/alerts.md "Live channel"): after an alert opens or changes, every account that may see
 * it receives the alert as it is now on `live/accounts/{accountId}/alerts` (contracts' `topics.liveAlerts`), QoS 0.
 * Browsers may subscribe only to their own account's topic (ingest/acl.ts `liveAlertsAccount`).
 */
import { eq } from 'drizzle-orm';
import { topics, type TLiveAlertMessage } from '@tessera/contracts';
import type { TAppContext } from '../../core/context.js';
import { alerts } from '../../db/schema.js';
import { alertAudience } from './access.js';
import { findAlertView } from './alert-view.js';
import { presentAlert } from './presenters.js';

/**
 * Publishes alert `alertId` as it is now to each account that may see it (alerts/access.ts `alertAudience`).
 * Best effort: live delivery is a convenience beside the stored alert, so this never throws — a missing alert is
 * ignored and failures are logged. Call it after the transaction that changed the alert has committed.
 */
export async function publishAlertChange(ctx: Pick<TAppContext, 'db' | 'bus' | 'log'>, alertId: number): Promise<void> {
  try {
    const view = await findAlertView(ctx.db, eq(alerts.id, alertId));
    if (!view) return;
    const audience = await alertAudience(ctx.db, view.alert);
    const alert = presentAlert(view);
    await Promise.all(
      audience.map((accountId) => {
        const topic = topics.liveAlerts(accountId);
        const message: TLiveAlertMessage = { topic, alert };
        return ctx.bus.publish(topic, JSON.stringify(message), { qos: 0 }).catch((err: unknown) => {
          ctx.log.warn({ err, topic, alertId }, 'live alert not published');
        });
      }),
    );
  } catch (err) {
    ctx.log.error({ err, alertId }, 'live alert publish failed');
  }
}
