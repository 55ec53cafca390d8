/**
 * Browsers' push subscriptions (spec §7 devices `configFCMStatus` — the console's push switch; docs/decisions/
 * device-control.md "Push switch"): each browser of an account registers the subscription `PushManager.subscribe`
 * made; the endpoint is unique, so a browser that logs in as another account moves its subscription to it.
 */
import { and, eq } from 'drizzle-orm';
import { ErrorCode, type TWebPushSubscription } from '@tessera/contracts';
import { AppError } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { webPushSubscriptions } from '../../db/schema.js';
import { isAllowedPushEndpoint } from './endpoint-policy.js';

/**
 * Registers (or moves to the caller) the subscription of one browser; answers its id.
 * @throws AppError 400 VALIDATION_FAILED when the endpoint is not on a known push service (WEB_PUSH_ORIGINS).
 */
export async function registerSubscription(
  db: Db,
  principal: TPrincipal,
  sub: TWebPushSubscription,
  allowedOrigins: readonly string[],
): Promise<number> {
  if (!isAllowedPushEndpoint(sub.endpoint, allowedOrigins)) {
    throw new AppError(400, ErrorCode.Validation, 'invalid body.endpoint: not a push service this server sends to', [
      { path: 'body.endpoint', message: 'not a known push service' },
    ]);
  }
  const values = { accountId: principal.accountId, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth };
  const [row] = await db
    .insert(webPushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: webPushSubscriptions.endpoint,
      set: { accountId: values.accountId, p256dh: values.p256dh, auth: values.auth },
    })
    .returning({ id: webPushSubscriptions.id });
  return row.id;
}

/** Forgets the caller's subscription with `endpoint` (another account's or an unknown one: nothing happens). */
export async function deleteSubscription(db: Db, principal: TPrincipal, endpoint: string): Promise<void> {
  await db
    .delete(webPushSubscriptions)
    .where(and(eq(webPushSubscriptions.endpoint, endpoint), eq(webPushSubscriptions.accountId, principal.accountId)));
}
