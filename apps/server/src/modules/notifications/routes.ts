/**
 * `/notification/v1` subscription routes (spec §7 "Notification (/notification/v1): device"): the caller's own subscription of a
 * device (`device/{tangramId}`) or a project (`project/{id}`), GET/PUT/DELETE, and the list of its subscriptions.
 * Vendors, admins and users alike, with the alerts feature (403 without); what the caller may not see is 404.
 */
import { z } from 'zod';
import {
  ZDeviceSubscription,
  ZIdParam,
  ZSubscription,
  ZSubscriptionList,
  ZSubscriptionSettings,
  ZTangramIdParam,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf } from '../../core/principal.js';
import { requireAlertsFeature } from '../alerts/feature.js';
import { listSubscriptions } from './subscription-list.js';
import {
  deleteDeviceSubscription,
  deleteProjectSubscription,
  getDeviceSubscription,
  getProjectSubscription,
  putDeviceSubscription,
  putProjectSubscription,
} from './subscriptions.js';

const tags = ['notification'];
const guarded = { preHandler: requireAlertsFeature };
const noContent = { 204: z.null().describe('no content') };

/** Registers the subscription routes (prefix `/notification/v1`). */
export async function notificationRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;

  app.get('/subscriptions', { ...guarded, schema: { tags, response: { 200: ZSubscriptionList } } }, (req) =>
    listSubscriptions(db, principalOf(req)),
  );

  app.get('/device/:tangramId', { ...guarded, schema: { tags, params: ZTangramIdParam, response: { 200: ZDeviceSubscription } } }, (req) =>
    getDeviceSubscription(db, principalOf(req), req.params.tangramId),
  );
  app.put(
    '/device/:tangramId',
    { ...guarded, schema: { tags, params: ZTangramIdParam, body: ZSubscriptionSettings, response: { 200: ZDeviceSubscription } } },
    (req) => putDeviceSubscription(db, principalOf(req), req.params.tangramId, req.body),
  );
  app.delete('/device/:tangramId', { ...guarded, schema: { tags, params: ZTangramIdParam, response: noContent } }, async (req, reply) => {
    await deleteDeviceSubscription(db, principalOf(req), req.params.tangramId);
    return reply.status(204).send(null);
  });

  app.get('/project/:id', { ...guarded, schema: { tags, params: ZIdParam, response: { 200: ZSubscription } } }, (req) =>
    getProjectSubscription(db, principalOf(req), req.params.id),
  );
  app.put(
    '/project/:id',
    { ...guarded, schema: { tags, params: ZIdParam, body: ZSubscriptionSettings, response: { 200: ZSubscription } } },
    (req) => putProjectSubscription(db, principalOf(req), req.params.id, req.body),
  );
  app.delete('/project/:id', { ...guarded, schema: { tags, params: ZIdParam, response: noContent } }, async (req, reply) => {
    await deleteProjectSubscription(db, principalOf(req), req.params.id);
    return reply.status(204).send(null);
  });
}
