/**
 * Undeclared-key routes (prefix `/frontstage/v1`; docs/decisions/telemetry.md "Undeclared keys"): the keys a project
 * offers for declaration, declaring one as a sensor, discarding one. Vendor only, tenant-scoped: another tenant's
 * project answers 404.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZDeclareUndeclaredKey, ZDiscardUndeclaredKey, ZIdParam, ZSensorSaveResult, ZUndeclaredKeyList } from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { declareUndeclaredKey, discardUndeclaredKey, listUndeclaredKeys } from './undeclared-keys.js';

const tags = ['sensors'];
const vendor = { preHandler: requireVendor };
const tenant = (req: FastifyRequest) => principalOf(req).tenantId;

/** Registers the undeclared-key routes (prefix `/frontstage/v1`). */
export async function undeclaredKeyRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  app.get(
    '/projects/:id/undeclared-keys',
    {
      ...vendor,
      schema: {
        tags,
        params: ZIdParam,
        response: { 200: ZUndeclaredKeyList },
        summary: 'Telemetry keys no sensor declares, offered for declaration',
      },
    },
    (req) => listUndeclaredKeys(ctx.db, tenant(req), req.params.id),
  );
  app.post(
    '/projects/:id/undeclared-keys/declare',
    {
      ...vendor,
      schema: {
        tags,
        params: ZIdParam,
        body: ZDeclareUndeclaredKey,
        response: { 201: ZSensorSaveResult },
        summary: 'Declare an undeclared key as a sensor of its type',
      },
    },
    async (req, reply) => reply.status(201).send(await declareUndeclaredKey(ctx, tenant(req), req.params.id, req.body)),
  );
  app.post(
    '/projects/:id/undeclared-keys/discard',
    {
      ...vendor,
      schema: {
        tags,
        params: ZIdParam,
        body: ZDiscardUndeclaredKey,
        response: { 204: z.null().describe('no content') },
        summary: 'Discard an undeclared key: its later values are refused',
      },
    },
    async (req, reply) => {
      await discardUndeclaredKey(ctx, tenant(req), req.params.id, req.body.key);
      return reply.status(204).send(null);
    },
  );
}
