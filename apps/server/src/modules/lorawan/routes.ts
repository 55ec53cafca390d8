/**
 * The console's LoRaWAN API (docs/decisions/lorawan.md): `/frontstage/v1/projects/{id}/lorawan…` — a project's
 * integrations, their secret (answered in full only on create and rotate) and last payloads — and
 * `/frontstage/v1/devices/{tangramId}/lorawan`, a device's DevEUI. Vendor only (§6), in the caller's tenant; another
 * tenant's project, integration or device answers 404.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZDeviceLorawan,
  ZDeviceLorawanInput,
  ZIdParam,
  ZLorawanIntegration,
  ZLorawanIntegrationInput,
  ZLorawanIntegrationList,
  ZLorawanIntegrationParams,
  ZLorawanIntegrationWithSecret,
  ZLorawanUplinkLog,
  ZTangramIdParam,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { readDeviceDevEui, setDeviceDevEui } from './dev-eui.js';
import {
  createIntegration,
  deleteIntegration,
  listIntegrations,
  rotateIntegrationSecret,
  updateIntegration,
} from './integration-service.js';
import { lorawanRuntime } from './lorawan-cache.js';
import { listUplinks } from './uplink-log.js';

const tags = ['lorawan'];
const vendor = { preHandler: requireVendor };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;

/** Registers the console's LoRaWAN routes (prefix `/frontstage/v1`). */
export async function lorawanRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  // Changes reach the webhook's caches at once (here) and on other replicas (notified); reads see the payloads logged.
  const lorawan = lorawanRuntime(ctx, (stop) => app.addHook('onClose', stop));
  app.get(
    '/projects/:id/lorawan',
    {
      ...vendor,
      schema: {
        tags,
        summary: "A project's LoRaWAN network-server integrations",
        params: ZIdParam,
        response: { 200: ZLorawanIntegrationList },
      },
    },
    async (req) => {
      await lorawan.uplinkLog.flush();
      return listIntegrations(db, tenant(req), req.params.id);
    },
  );
  app.post(
    '/projects/:id/lorawan',
    {
      ...vendor,
      schema: {
        tags,
        summary: 'Add a LoRaWAN integration; its secret is answered this once',
        params: ZIdParam,
        body: ZLorawanIntegrationInput,
        response: { 201: ZLorawanIntegrationWithSecret },
      },
    },
    async (req, reply) => {
      const created = await createIntegration(db, tenant(req), req.params.id, req.body, ctx.config.secretsKey);
      // Every replica's MQTT subscriptions learn of it (an integration over MQTT starts consuming).
      await lorawan.changed(`integration:${created.id}`);
      return reply.status(201).send(created);
    },
  );
  app.put(
    '/projects/:id/lorawan/:integrationId',
    {
      ...vendor,
      schema: {
        tags,
        summary: "Change a LoRaWAN integration's name, network server, field mapping or transport",
        params: ZLorawanIntegrationParams,
        body: ZLorawanIntegrationInput,
        response: { 200: ZLorawanIntegration },
      },
    },
    async (req) => {
      const updated = await updateIntegration(db, tenant(req), req.params.id, req.params.integrationId, req.body, ctx.config.secretsKey);
      await lorawan.changed(`integration:${updated.id}`);
      return updated;
    },
  );
  app.delete(
    '/projects/:id/lorawan/:integrationId',
    {
      ...vendor,
      schema: {
        tags,
        summary: 'Delete a LoRaWAN integration and its last payloads',
        params: ZLorawanIntegrationParams,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await deleteIntegration(db, tenant(req), req.params.id, req.params.integrationId);
      await lorawan.changed(`integration:${req.params.integrationId}`);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/projects/:id/lorawan/:integrationId/secret',
    {
      ...vendor,
      schema: {
        tags,
        summary: 'Give a LoRaWAN integration a new secret, answered this once',
        params: ZLorawanIntegrationParams,
        response: { 200: ZLorawanIntegrationWithSecret },
      },
    },
    async (req) => {
      const rotated = await rotateIntegrationSecret(db, tenant(req), req.params.id, req.params.integrationId);
      await lorawan.changed(`integration:${rotated.id}`);
      return rotated;
    },
  );
  app.get(
    '/projects/:id/lorawan/:integrationId/uplinks',
    {
      ...vendor,
      schema: {
        tags,
        summary: 'The last payloads a LoRaWAN integration received, newest first',
        params: ZLorawanIntegrationParams,
        response: { 200: ZLorawanUplinkLog },
      },
    },
    async (req) => {
      await lorawan.uplinkLog.flush();
      return listUplinks(db, tenant(req), req.params.id, req.params.integrationId);
    },
  );
  app.get(
    '/devices/:tangramId/lorawan',
    {
      ...vendor,
      schema: { tags, summary: "A device's LoRaWAN DevEUI", params: ZTangramIdParam, response: { 200: ZDeviceLorawan } },
    },
    (req) => readDeviceDevEui(db, principalOf(req), req.params.tangramId),
  );
  app.put(
    '/devices/:tangramId/lorawan',
    {
      ...vendor,
      schema: {
        tags,
        summary: "Set or clear a device's LoRaWAN DevEUI",
        params: ZTangramIdParam,
        body: ZDeviceLorawanInput,
        response: { 200: ZDeviceLorawan },
      },
    },
    async (req) => {
      const set = await setDeviceDevEui(db, principalOf(req), req.params.tangramId, req.body);
      await lorawan.changed('devices');
      return set;
    },
  );
}
