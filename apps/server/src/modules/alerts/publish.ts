/**
 * Live alerts (docs/decisions/alerts.md "Live channel"): after an alert opens or changes, every account that may see
 * it receives the alert as it is now on `live/accounts/{accountId}/alerts` (contracts' `topics.liveAlerts`), QoS 0.
 * Browsers may subscribe only to their own account's topic (ingest/acl.ts `liveAlertsAccount`).
 */
import { inArray } from 'drizzle-orm';
import { topics, type TLiveAlertMessage } from '@tessera/contracts';
import type { TAppContext } from '../../core/context.js';
import { alerts } from '../../db/schema.js';
import { alertAudiences } from './access.js';
import { selectAlertViews } from './alert-view.js';
import { presentAlert } from './presenters.js';
import { queueAlertWebhooks } from '../webhooks/queue-alert-events.js';

/**
 * Publishes each alert of `alertIds` as it is now to each account that may see it (alerts/access.ts
 * `alertAudiences`), reading all of them in two queries. Best effort: live delivery is a convenience beside the
 * stored alert, so this never throws — a missing alert is skipped and failures are logged. Call it after the
 * transaction that changed the alerts has committed.
 */
export async function publishAlertChanges(ctx: Pick<TAppContext, 'db' | 'bus' | 'log'>, alertIds: readonly number[]): Promise<void> {
  if (alertIds.length === 0) return;
  try {
    // The projects' webhooks hear of the change through their outbox (durable, retried); the sweep catches a lost one.
    await queueAlertWebhooks(ctx.db, alertIds);
    const views = await selectAlertViews(ctx.db).where(inArray(alerts.id, [...alertIds]));
    const audiences = await alertAudiences(
      ctx.db,
      views.map((v) => v.alert),
    );
    await Promise.all(
      views.flatMap((view, i) => {
        const alert = presentAlert(view);
        return (audiences[i] ?? []).map((accountId) => {
          const topic = topics.liveAlerts(accountId);
          const message: TLiveAlertMessage = { topic, alert };
          return ctx.bus.publish(topic, JSON.stringify(message), { qos: 0 }).catch((err: unknown) => {
            ctx.log.warn({ err, topic, alertId: alert.id }, 'live alert not published');
          });
        });
      }),
    );
  } catch (err) {
    ctx.log.error({ err, alertIds: alertIds.length }, 'live alert publish failed');
  }
}

/** {@link publishAlertChanges} of one alert. */
export function publishAlertChange(ctx: Pick<TAppContext, 'db' | 'bus' | 'log'>, alertId: number): Promise<void> {
  return publishAlertChanges(ctx, [alertId]);
}

/** At most this many alerts are read and published in one batch. */
export const LIVE_ALERT_BATCH_MAX = 500;

/**
 * A publish of one alert that joins others: the publishes asked for in the same tick, or while a batch is in flight,
 * go out together as the next batch (publishAlertChanges); each caller's promise resolves with its batch. So a
 * burst of changed alerts costs two queries per batch, not two per alert.
 */
export function batchedAlertPublish(ctx: Pick<TAppContext, 'db' | 'bus' | 'log'>): (alertId: number) => Promise<void> {
  let waiting = new Map<number, (() => void)[]>();
  let running = false;
  const drain = async () => {
    running = true;
    try {
      while (waiting.size > 0) {
        const ids = [...waiting.keys()].slice(0, LIVE_ALERT_BATCH_MAX);
        const done = ids.flatMap((id) => waiting.get(id) ?? []);
        if (ids.length === waiting.size) waiting = new Map();
        else for (const id of ids) waiting.delete(id);
        await publishAlertChanges(ctx, ids);
        for (const resolve of done) resolve();
      }
    } finally {
      running = false;
    }
  };
  return (alertId) =>
    new Promise<void>((resolve) => {
      waiting.set(alertId, [...(waiting.get(alertId) ?? []), resolve]);
      if (!running) {
        running = true;
        setImmediate(() => void drain());
      }
    });
}
