/**
 * `/notification/v1/web-push/…` (docs/decisions/device-control.md "Push switch"): the VAPID public key a browser
 * subscribes with, and registering or forgetting this browser's push subscription. Any logged-in account.
 */
import { z } from 'zod';
import { ZWebPushKey, ZWebPushRegistered, ZWebPushSubscription, ZWebPushUnsubscribe } from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAuth } from '../../core/principal.js';
import { secretBoxFor } from '../../core/secret-box.js';
import { deleteSubscription, registerSubscription } from './subscriptions.js';
import { loadVapid } from './vapid.js';

const tags = ['notification'];
const auth = { preHandler: requireAuth };

/** Registers the Web Push routes (prefix `/notification/v1`). */
export async function webPushRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, config } = ctx;
  const vapid = await loadVapid(db, await secretBoxFor(db, config.secretsKey), config);
  app.get('/web-push/key', { ...auth, schema: { tags, response: { 200: ZWebPushKey } } }, async () => ({ public_key: vapid.publicKey }));
  app.post(
    '/web-push/subscriptions',
    { ...auth, schema: { tags, body: ZWebPushSubscription, response: { 201: ZWebPushRegistered } } },
    async (req, reply) => reply.status(201).send({ id: await registerSubscription(db, principalOf(req), req.body, config.webPushOrigins) }),
  );
  app.delete(
    '/web-push/subscriptions',
    { ...auth, schema: { tags, body: ZWebPushUnsubscribe, response: { 204: z.null().describe('no content') } } },
    async (req, reply) => {
      await deleteSubscription(db, principalOf(req), req.body.endpoint);
      return reply.status(204).send(null);
    },
  );
}
