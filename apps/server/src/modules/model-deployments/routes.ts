/**
 * Deploying AI model revisions to devices (docs/decisions/ai.md "Deploying to devices", docs/protocol.md "AI models").
 * Console routes (`/frontstage-ai/v1`, the registry's vendors: 13:1; users 403; another tenant's ids 404) and the
 * devices' HTTP routes (`/device/v1`: a token for MQTT credentials, and a deployment's file with that token).
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZAiModelRevisionParam,
  ZDeviceToken,
  ZIdParam,
  ZRollout,
  ZRolloutDevicePage,
  ZRolloutDeviceQuery,
  ZRolloutInput,
  ZRolloutListQuery,
  ZRolloutPage,
  ZRolloutRetry,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf } from '../../core/principal.js';
import { sendRevisionFile } from '../ai-models/download.js';
import { requireModelManager } from '../ai-models/routes.js';
import { createRollout, removeRollout, retryRollout, type TDeployDeps } from './deploy.js';
import { deploymentRevision, deviceOfToken, issueDeviceToken } from './device-access.js';
import { getRollout, listRollouts, listRolloutDevices } from './rollout-queries.js';

const tags = ['model-deployments'];
const manager = { preHandler: requireModelManager };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;

/** Registers the rollout routes (prefix `/frontstage-ai/v1`). */
export async function modelRolloutRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, bus, log, config } = ctx;
  const deps = (req: FastifyRequest): TDeployDeps => ({ db, bus, log, baseUrl: config.publicUrl ?? `${req.protocol}://${req.host}` });

  app.post(
    '/ai-models/:id/revisions/:rev/rollouts',
    { ...manager, schema: { tags, params: ZAiModelRevisionParam, body: ZRolloutInput, response: { 201: ZRollout } } },
    async (req, reply) => reply.status(201).send(await createRollout(deps(req), principalOf(req), req.params.id, req.params.rev, req.body)),
  );
  app.get('/model-rollouts', { ...manager, schema: { tags, querystring: ZRolloutListQuery, response: { 200: ZRolloutPage } } }, (req) =>
    listRollouts(db, tenant(req), req.query),
  );
  app.get('/model-rollouts/:id', { ...manager, schema: { tags, params: ZIdParam, response: { 200: ZRollout } } }, (req) =>
    getRollout(db, tenant(req), req.params.id),
  );
  app.get(
    '/model-rollouts/:id/devices',
    { ...manager, schema: { tags, params: ZIdParam, querystring: ZRolloutDeviceQuery, response: { 200: ZRolloutDevicePage } } },
    (req) => listRolloutDevices(db, tenant(req), req.params.id, req.query),
  );
  app.post('/model-rollouts/:id/retry', { ...manager, schema: { tags, params: ZIdParam, response: { 200: ZRolloutRetry } } }, (req) =>
    retryRollout(deps(req), tenant(req), req.params.id),
  );
  app.delete(
    '/model-rollouts/:id',
    { ...manager, schema: { tags, params: ZIdParam, response: { 204: z.null().describe('no content') } } },
    async (req, reply) => {
      await removeRollout(deps(req), tenant(req), req.params.id);
      return reply.status(204).send(null);
    },
  );
}

/** Registers the devices' HTTP routes (prefix `/device/v1`); they take device credentials, never a console login. */
export async function deviceModelRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, blobs } = ctx;
  app.post(
    '/token',
    {
      schema: {
        tags,
        description:
          'HTTP Basic: the full Tangram ID and the device secret (the MQTT username and password). 401 DEVICE_CREDENTIALS_INVALID otherwise',
        response: { 200: ZDeviceToken },
      },
    },
    (req) => issueDeviceToken(db, req.headers.authorization),
  );
  app.get(
    '/model-deployments/:id/file',
    {
      schema: {
        tags,
        params: ZIdParam,
        description:
          "The deployment's file with the device's bearer token (POST /device/v1/token); the device's own current deployments only. One `Range: bytes=` range → 206; ETag is the SHA-256; a range outside the file → 416",
      },
    },
    async (req, reply) => {
      const device = await deviceOfToken(db, req.headers.authorization);
      return sendRevisionFile(blobs, await deploymentRevision(db, device, req.params.id), req, reply);
    },
  );
}
