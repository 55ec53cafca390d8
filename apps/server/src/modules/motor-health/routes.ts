/**
 * The device detail's motor-health call (spec §2 `motor-health`, prefix `/frontstage/v1`; docs/decisions/
 * motor-health.md): `GET devices/{tangramId}/motor-health?startTs=&endTs=&width=`. Any login; the device must be
 * visible (404) and the caller must hold view_history on it (403), as for history charts.
 */
import { ZMotorHealth, ZMotorHealthQuery, ZTangramIdParam } from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAuth } from '../../core/principal.js';
import { getMotorHealth } from './motor-health.js';

/** Registers the motor-health route (prefix `/frontstage/v1`). */
export async function motorHealthRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  app.get(
    '/devices/:tangramId/motor-health',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['devices'],
        description: 'ISO 10816-3 zone of the latest vibration velocity, its series over the range and hours per zone',
        params: ZTangramIdParam,
        querystring: ZMotorHealthQuery,
        response: { 200: ZMotorHealth },
      },
    },
    (req) => getMotorHealth(ctx.db, principalOf(req), req.params.tangramId, req.query),
  );
}
