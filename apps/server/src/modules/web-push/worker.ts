/**
 * The Web Push worker: sends pending `web_push_outbox` rows through the shared outbox loop (core/outbox-loop.ts),
 * encrypted for each browser (RFC 8291 aes128gcm) and signed with the server's VAPID key (RFC 8292) by the maintained
 * `web-push` library (`generateRequestDetails`), and POSTed with fetch (web-push's own sender speaks https only, and
 * the local push service of the tests is plain http). Outcomes: `sent` when the push service accepts (201); `gone` when it answers 404 or
 * 410 — the browser unsubscribed or the subscription expired — and the subscription is deleted; `failed` at once for
 * other 4xx but 429 (the request itself is wrong: it will not heal by waiting); retried with backoff otherwise (5xx,
 * 429, network errors).
 */
import { eq, inArray } from 'drizzle-orm';
import { WEB_PUSH_TTL_S } from '@tessera/contracts';
import type { Logger } from 'pino';
import webpush from 'web-push';
import { claimDue, failedAttempt, startOutboxLoop, type TOutboxWorker } from '../outbox/outbox-loop.js';
import type { Db } from '../../db/client.js';
import { webPushOutbox, webPushSubscriptions } from '../../db/schema.js';
import type { TVapid } from './vapid.js';

interface TClaimedPush {
  id: number;
  subscription_id: number | null;
  payload: string;
  attempts: number;
}

/** How long one request to a push service may take, in milliseconds. */
const PUSH_REQUEST_TIMEOUT_MS = 10_000;

/** A push service's refusal: its HTTP status and body. */
class PushServiceError extends Error {
  constructor(
    readonly statusCode: number,
    body: string,
  ) {
    super(`push service answered ${statusCode}${body ? `: ${body.slice(0, 200)}` : ''}`);
  }
}

/** The HTTP status a push service answered, when the error carries one. */
function statusOf(err: unknown): number | null {
  return err instanceof PushServiceError ? err.statusCode : null;
}

/** Sends one encrypted, VAPID-signed message; resolves when the push service accepted it (2xx). */
async function post(sub: { endpoint: string; keys: { p256dh: string; auth: string } }, payload: string, vapid: TVapid): Promise<void> {
  const request = webpush.generateRequestDetails(sub, payload, {
    vapidDetails: vapid,
    TTL: WEB_PUSH_TTL_S,
    contentEncoding: 'aes128gcm',
    urgency: 'high',
  });
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'content-length'));
  const res = await fetch(request.endpoint, {
    method: request.method,
    headers: headers as Record<string, string>,
    body: new Uint8Array(request.body as Buffer),
    signal: AbortSignal.timeout(PUSH_REQUEST_TIMEOUT_MS),
  });
  const text = await res.text().catch(() => '');
  if (!res.ok) throw new PushServiceError(res.status, text);
}

/** Starts the worker sending as `vapid`. */
export function startWebPushWorker(opts: { db: Db; log: Logger; vapid: TVapid }): TOutboxWorker {
  const { db, log, vapid } = opts;
  const finish = (id: number, set: Partial<typeof webPushOutbox.$inferInsert>) =>
    db.update(webPushOutbox).set(set).where(eq(webPushOutbox.id, id));

  async function sendOne(row: TClaimedPush, sub: typeof webPushSubscriptions.$inferSelect | undefined): Promise<void> {
    if (!sub) {
      await finish(row.id, { status: 'gone', lastError: 'the subscription was removed' });
      return;
    }
    try {
      await post({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, row.payload, vapid);
      await finish(row.id, { status: 'sent', sentAt: Date.now(), lastError: null, attempts: row.attempts + 1 });
    } catch (err) {
      const status = statusOf(err);
      const reason = `${status ?? 'network'}: ${String((err as Error).message).slice(0, 300)}`;
      if (status === 404 || status === 410) {
        await db.delete(webPushSubscriptions).where(eq(webPushSubscriptions.id, sub.id));
        await finish(row.id, { status: 'gone', lastError: reason, attempts: row.attempts + 1 });
        log.info({ pushId: row.id, subscriptionId: sub.id, status }, 'web push subscription gone; removed');
      } else if (status !== null && status >= 400 && status < 500 && status !== 429) {
        await finish(row.id, { status: 'failed', lastError: reason, attempts: row.attempts + 1 });
        log.warn({ pushId: row.id, status }, 'web push refused by the push service');
      } else {
        const update = failedAttempt(row.attempts, new Error(reason));
        await finish(row.id, update);
        log.warn({ pushId: row.id, attempts: update.attempts, err: reason }, 'web push not sent; will retry');
      }
    }
  }

  return startOutboxLoop({
    log,
    name: 'web push',
    async pass() {
      const claimed = await claimDue<TClaimedPush>(db, 'web_push_outbox', 'id, subscription_id, payload, attempts');
      if (claimed.length === 0) return;
      const ids = claimed.map((r) => r.subscription_id).filter((id): id is number => id !== null);
      const subs = ids.length ? await db.select().from(webPushSubscriptions).where(inArray(webPushSubscriptions.id, ids)) : [];
      const byId = new Map(subs.map((s) => [s.id, s]));
      for (const row of claimed) await sendOne(row, row.subscription_id === null ? undefined : byId.get(row.subscription_id));
    },
  });
}
