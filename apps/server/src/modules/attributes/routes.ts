/**
 * A device's attributes in the console (docs/decisions/device-apis.md "Attributes"), prefix `/frontstage/v1`:
 * `GET devices/{tangramId}/attributes/{scope}` lists one scope (client, shared, server) — any account that sees the
 * device and may view its telemetry; `POST devices/{tangramId}/attributes/{scope}` with `{ key: value, … }` sets
 * shared or server attributes and `DELETE devices/{tangramId}/attributes/{scope}/{key}` deletes one — vendors and
 * admins of the device's tenant. A shared change is sent to the device at once, on whichever replica it is connected.
 * Another tenant's device and a missing one answer 404.
 */
import {
  ErrorCode,
  ZAttributeKeyParam,
  ZAttributeMap,
  ZAttributeScopeParam,
  ZDeviceAttributeList,
  ZWritableAttributeScopeParam,
  type TAttributeScope,
  type TDeviceAttributeList,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { AppError, notFound } from '../../core/errors.js';
import { principalOf, requireAuth, requireVendor } from '../../core/principal.js';
import { deviceFor } from '../devices/access.js';
import { deleteAttribute, readAttributes, writeAttributes } from './attribute-store.js';

const tags = ['devices'];

/** Registers the console's device-attribute routes (prefix `/frontstage/v1`). */
export async function deviceAttributeRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const list = async (deviceId: number, tangramId: string, scope: TAttributeScope): Promise<TDeviceAttributeList> => ({
    tangram_id: tangramId,
    scope,
    items: await readAttributes(ctx.db, deviceId, scope),
  });

  app.get(
    '/devices/:tangramId/attributes/:scope',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        params: ZAttributeScopeParam,
        response: { 200: ZDeviceAttributeList },
        summary: "A device's attributes of one scope",
      },
    },
    async (req) => {
      const device = await deviceFor(ctx.db, principalOf(req), req.params.tangramId, 'view_telemetry');
      return list(device.id, device.tangramId, req.params.scope);
    },
  );

  app.post(
    '/devices/:tangramId/attributes/:scope',
    {
      preHandler: requireVendor,
      schema: {
        tags,
        params: ZWritableAttributeScopeParam,
        body: ZAttributeMap,
        response: { 200: ZDeviceAttributeList },
        summary: 'Set shared or server attributes of a device (shared ones are sent to it)',
      },
    },
    async (req) => {
      const { scope } = req.params;
      const device = await deviceFor(ctx.db, principalOf(req), req.params.tangramId);
      const written = await writeAttributes(ctx.db, device.id, scope, req.body, Date.now());
      if (!written.ok) throw new AppError(409, ErrorCode.Conflict, 'the device holds as many attributes of this scope as it may');
      if (scope === 'shared') await pushShared(ctx, req.log, device.tangramId, device.id, written.updatedAt, []);
      return list(device.id, device.tangramId, scope);
    },
  );

  app.delete(
    '/devices/:tangramId/attributes/:scope/:key',
    {
      preHandler: requireVendor,
      schema: { tags, params: ZAttributeKeyParam, summary: 'Delete a shared or server attribute of a device' },
    },
    async (req, reply) => {
      const { scope, key } = req.params;
      const device = await deviceFor(ctx.db, principalOf(req), req.params.tangramId);
      if (!(await deleteAttribute(ctx.db, device.id, scope, key))) throw notFound('attribute');
      if (scope === 'shared') await pushShared(ctx, req.log, device.tangramId, device.id, Number.MAX_SAFE_INTEGER, [key]);
      return reply.status(204).send();
    },
  );
}

/** Sends the device its shared change; a failure is logged (the change is committed; the device reads it on request). */
async function pushShared(
  ctx: TAppContext,
  log: { warn: (obj: object, msg: string) => void },
  tangramId: string,
  deviceId: number,
  sinceMs: number,
  deleted: string[],
): Promise<void> {
  await ctx.bus.sharedAttributesChanged(tangramId, deviceId, sinceMs, deleted).catch((err: unknown) => {
    log.warn({ err, tangramId }, 'shared attribute change not sent to the device');
  });
}
