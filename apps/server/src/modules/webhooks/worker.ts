/**
 * The webhook worker (docs/decisions/webhooks.md): sends pending `webhook_outbox` rows through the shared outbox loop
 * (modules/outbox/outbox-loop.ts) — a JSON POST signed with the webhook's secret (signature.ts), after the destination
 * check (destination-policy.ts). A 2xx answer is `sent`; anything else (a status, a timeout, a refused destination) is
 * retried with the outbox's backoff and recorded (status, error, duration) for the delivery log; a row whose webhook
 * was switched off is given up. Every minute it also sweeps for alert events whose live queueing was lost.
 */
import { inArray } from 'drizzle-orm';
import { WEBHOOK_HEADERS } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { projectWebhooks, webhookOutbox } from '../../db/schema.js';
import { secretBoxFor } from '../../core/secret-box.js';
import { claimDue, failedAttempt, startOutboxLoop, type TOutboxWorker } from '../outbox/outbox-loop.js';
import { assertWebhookDestination } from './destination-policy.js';
import { sweepAlertWebhooks } from './queue-alert-events.js';
import { signWebhook } from './signature.js';
import { webhookSecretContext } from './webhook-service.js';
import { eq } from 'drizzle-orm';

interface TClaimedDelivery {
  id: number;
  webhook_id: number;
  event: string;
  payload: string;
  attempts: number;
}

/** How long a receiver may take to answer, in milliseconds. */
export const WEBHOOK_REQUEST_TIMEOUT_MS = 10_000;
/** How often the catch-up sweep runs, and how far back it looks (twice that), in milliseconds. */
const SWEEP_EVERY_MS = 60_000;

/** Starts the worker. `allowPrivate`: WEBHOOK_PRIVATE_NETWORKS. */
export function startWebhookWorker(opts: { db: Db; log: Logger; secretsKey?: string; allowPrivate: boolean }): TOutboxWorker {
  const { db, log } = opts;
  const finish = (id: number, set: Partial<typeof webhookOutbox.$inferInsert>) =>
    db.update(webhookOutbox).set(set).where(eq(webhookOutbox.id, id));
  let lastSweepAt = 0;

  async function sendOne(row: TClaimedDelivery, hook: typeof projectWebhooks.$inferSelect | undefined): Promise<void> {
    if (!hook?.enabled) {
      await finish(row.id, { status: 'failed', lastError: 'the webhook is switched off', attempts: row.attempts + 1 });
      return;
    }
    const started = performance.now();
    let responseStatus: number | null = null;
    try {
      await assertWebhookDestination(hook.url, opts.allowPrivate);
      const secret = (await secretBoxFor(db, opts.secretsKey)).decrypt(hook.secretSealed, webhookSecretContext(hook.projectId));
      const timestampS = Math.floor(Date.now() / 1000);
      const res = await fetch(hook.url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Tessera-Webhooks/1',
          [WEBHOOK_HEADERS.signature]: signWebhook(secret, timestampS, row.payload),
          [WEBHOOK_HEADERS.timestamp]: String(timestampS),
          [WEBHOOK_HEADERS.event]: row.event,
          [WEBHOOK_HEADERS.deliveryId]: String(row.id),
        },
        body: row.payload,
        signal: AbortSignal.timeout(WEBHOOK_REQUEST_TIMEOUT_MS),
      });
      responseStatus = res.status;
      await res.body?.cancel().catch(() => undefined);
      if (res.status < 200 || res.status >= 300) throw new Error(`the receiver answered ${res.status}`);
      const durationMs = Math.round(performance.now() - started);
      await finish(row.id, { status: 'sent', sentAt: Date.now(), lastError: null, attempts: row.attempts + 1, responseStatus, durationMs });
    } catch (err) {
      const update = failedAttempt(row.attempts, err);
      await finish(row.id, { ...update, responseStatus, durationMs: Math.round(performance.now() - started) });
      log.warn(
        { deliveryId: row.id, webhookId: row.webhook_id, attempts: update.attempts, err: update.lastError },
        'webhook not delivered; will retry',
      );
    }
  }

  return startOutboxLoop({
    log,
    name: 'webhooks',
    async pass() {
      if (Date.now() - lastSweepAt >= SWEEP_EVERY_MS) {
        const since = lastSweepAt === 0 ? Date.now() - 2 * SWEEP_EVERY_MS : lastSweepAt - SWEEP_EVERY_MS;
        lastSweepAt = Date.now();
        await sweepAlertWebhooks(db, since);
      }
      const claimed = await claimDue<TClaimedDelivery>(db, 'webhook_outbox', 'id, webhook_id, event, payload, attempts');
      if (claimed.length === 0) return;
      const hooks = await db
        .select()
        .from(projectWebhooks)
        .where(inArray(projectWebhooks.id, [...new Set(claimed.map((r) => r.webhook_id))]));
      const byId = new Map(hooks.map((h) => [h.id, h]));
      await Promise.all(claimed.map((row) => sendOne(row, byId.get(row.webhook_id))));
    },
  });
}
