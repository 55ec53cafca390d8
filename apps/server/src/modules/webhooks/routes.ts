/**
 * `/frontstage/v1/projects/{id}/webhooks…` (docs/decisions/webhooks.md): a project's outbound webhooks, their signing
 * secret (answered in full only on create and rotate), the delivery log and a test send. Vendor only (§6), in the
 * caller's tenant; another tenant's project or webhook answers 404.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZIdParam,
  ZListQuery,
  ZWebhook,
  ZWebhookDelivery,
  ZWebhookDeliveryPage,
  ZWebhookInput,
  ZWebhookList,
  ZWebhookParams,
  ZWebhookWithSecret,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { listDeliveries, queueTestDelivery } from './deliveries.js';
import { createWebhook, deleteWebhook, listWebhooks, rotateWebhookSecret, updateWebhook } from './webhook-service.js';

const tags = ['webhooks'];
const vendor = { preHandler: requireVendor };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;

/** Registers the webhook routes (prefix `/frontstage/v1`). */
export async function webhookRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  const secretsKey = ctx.config.secretsKey;

  app.get(
    '/projects/:id/webhooks',
    { ...vendor, schema: { tags, summary: "A project's outbound webhooks", params: ZIdParam, response: { 200: ZWebhookList } } },
    (req) => listWebhooks(db, tenant(req), req.params.id),
  );
  app.post(
    '/projects/:id/webhooks',
    {
      ...vendor,
      schema: {
        tags,
        summary: 'Add a webhook; its signing secret is answered this once',
        params: ZIdParam,
        body: ZWebhookInput,
        response: { 201: ZWebhookWithSecret },
      },
    },
    async (req, reply) => reply.status(201).send(await createWebhook(db, secretsKey, tenant(req), req.params.id, req.body)),
  );
  app.put(
    '/projects/:id/webhooks/:webhookId',
    {
      ...vendor,
      schema: {
        tags,
        summary: "Change a webhook's URL, events or switch",
        params: ZWebhookParams,
        body: ZWebhookInput,
        response: { 200: ZWebhook },
      },
    },
    (req) => updateWebhook(db, tenant(req), req.params.id, req.params.webhookId, req.body),
  );
  app.delete(
    '/projects/:id/webhooks/:webhookId',
    { ...vendor, schema: { tags, summary: 'Delete a webhook and its delivery log', params: ZWebhookParams, response: { 204: z.null() } } },
    async (req, reply) => {
      await deleteWebhook(db, tenant(req), req.params.id, req.params.webhookId);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/projects/:id/webhooks/:webhookId/secret',
    {
      ...vendor,
      schema: {
        tags,
        summary: 'Give a webhook a new signing secret, answered this once',
        params: ZWebhookParams,
        response: { 200: ZWebhookWithSecret },
      },
    },
    (req) => rotateWebhookSecret(db, secretsKey, tenant(req), req.params.id, req.params.webhookId),
  );
  app.post(
    '/projects/:id/webhooks/:webhookId/test',
    {
      ...vendor,
      schema: {
        tags,
        summary: 'Send a test event now; the delivery log shows the answer',
        params: ZWebhookParams,
        response: { 202: ZWebhookDelivery },
      },
    },
    async (req, reply) => {
      const delivery = await queueTestDelivery(db, tenant(req), req.params.id, req.params.webhookId);
      ctx.outbox.nudge('webhooks');
      return reply.status(202).send(delivery);
    },
  );
  app.get(
    '/projects/:id/webhooks/:webhookId/deliveries',
    {
      ...vendor,
      schema: {
        tags,
        summary: "A webhook's deliveries, newest first",
        params: ZWebhookParams,
        querystring: ZListQuery,
        response: { 200: ZWebhookDeliveryPage },
      },
    },
    (req) => listDeliveries(db, tenant(req), req.params.id, req.params.webhookId, req.query),
  );
}
