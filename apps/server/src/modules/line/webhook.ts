/**
 * POST /notification/v1/line/webhook/{webhookId} (docs/decisions/line.md "webhook"): the tenant is found by the
 * opaque id in the path; the raw body must carry a valid `X-Line-Signature` under that tenant's channel secret, else
 * 401 and nothing is read or stored. Each event is handled once: its `webhookEventId` is recorded first, and a
 * redelivery of a recorded event is skipped. An event whose handling fails is un-recorded and the call answers 502,
 * so that LINE's redelivery (when enabled) tries it again.
 */
import { and, eq, lt } from 'drizzle-orm';
import { LineErrorCode } from '@tessera/contracts';
import { AppError, badRequest, notFound, unauthorized } from '../../core/errors.js';
import { lineWebhookEvents } from '../../db/schema.js';
import { loadChannelByWebhook } from './official-account.js';
import type { TLineRuntime } from './runtime.js';
import { isValidLineSignature } from './signature.js';
import { ZLineWebhookBody } from './webhook-events.js';
import { handleLineEvent } from './webhook-handlers.js';

/** Handled event ids are kept this long (LINE redelivers for a shorter time), in milliseconds. */
export const LINE_EVENT_IDS_KEPT_MS = 7 * 24 * 3600_000;

/**
 * Verifies and handles one webhook call; answers how many events were handled now (redeliveries not counted).
 * @throws AppError 404 unknown webhook id; 401 LINE_SIGNATURE_INVALID; 400 a signed body that is not LINE's JSON;
 * 502 LINE_UPSTREAM_ERROR when an event could not be handled.
 */
export async function receiveLineWebhook(
  rt: TLineRuntime,
  webhookId: string,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<number> {
  const channel = await loadChannelByWebhook(rt.db, rt.box, webhookId);
  if (!channel) throw notFound('webhook');
  if (!isValidLineSignature(rawBody, channel.channelSecret, signature)) {
    throw unauthorized('the X-Line-Signature header is missing or does not match the body', LineErrorCode.SignatureInvalid);
  }
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw badRequest('the body is not JSON');
  }
  const body = ZLineWebhookBody.safeParse(json);
  if (!body.success) throw badRequest('the body is not a LINE webhook body');

  const now = Date.now();
  await rt.db.delete(lineWebhookEvents).where(lt(lineWebhookEvents.receivedAt, now - LINE_EVENT_IDS_KEPT_MS));
  let handled = 0;
  let failed = 0;
  for (const event of body.data.events) {
    const key = { tenantId: channel.tenantId, eventId: event.webhookEventId };
    const fresh = await rt.db
      .insert(lineWebhookEvents)
      .values({ ...key, receivedAt: now })
      .onConflictDoNothing()
      .returning();
    if (fresh.length === 0) continue;
    try {
      await handleLineEvent(rt, channel, event);
      handled += 1;
    } catch (err) {
      failed += 1;
      rt.log.warn({ tenantId: channel.tenantId, event: event.type, err: (err as Error).message }, 'LINE webhook event not handled');
      await rt.db
        .delete(lineWebhookEvents)
        .where(and(eq(lineWebhookEvents.tenantId, key.tenantId), eq(lineWebhookEvents.eventId, key.eventId)));
    }
  }
  if (failed > 0) throw new AppError(502, LineErrorCode.Upstream, `${failed} event(s) could not be handled; redeliver them`);
  return handled;
}
