/**
 * `/frontstage/v1/devices…` and `/frontstage/v1/v2/devices…` (spec §7 devices; v2 list, detail and update; profile
 * telemetries and status; getAccessAbleTenants). Any logged-in account; users see only the devices authorised to
 * them (§6). PUT is vendor only; regenerating the MQTT secret is vendor only and needs a signed-in session, not an API
 * key (docs/decisions/devices-bulk.md "Regenerating a device's secret"). Registration lives under projects
 * (projects/routes.ts).
 */
import {
  ZAccessibleTenants,
  ZDeviceStatusProfile,
  ZDeviceTelemetryProfile,
  ZDevice,
  ZDeviceDetail,
  ZDeviceList,
  ZDeviceListFilter,
  ZDeviceListQuery,
  ZDeviceSecret,
  ZDeviceUpdate,
  ZSum,
  ZTangramIdParam,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAuth, requireVendor } from '../../core/principal.js';
import { countDevices, listDevices } from './device-queries.js';
import { accessibleTenants, deviceStatusProfile, deviceTelemetryProfile } from './device-profiles.js';
import { getDevice, getDeviceDetail, updateDevice } from './device-service.js';
import { rotateDeviceSecret } from './rotate-device-secret.js';
import { requireSession } from '../auth/session-guard.js';
import { changeAuditOf } from '../audit-log/handler-rows.js';
import { deviceCertificateRoutes } from './certificate-routes.js';

const tags = ['devices'];
const auth = { preHandler: requireAuth };

/** Registers the device routes (prefix `/frontstage/v1`). */
export async function deviceRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db } = ctx;
  for (const base of ['/devices', '/v2/devices']) {
    app.get(base, { ...auth, schema: { tags, querystring: ZDeviceListQuery, response: { 200: ZDeviceList } } }, (req) =>
      listDevices(db, principalOf(req), req.query),
    );
  }
  app.get('/devices/sum', { ...auth, schema: { tags, querystring: ZDeviceListFilter, response: { 200: ZSum } } }, async (req) => ({
    total: await countDevices(db, principalOf(req), req.query),
  }));
  app.get('/devices/:tangramId', { ...auth, schema: { tags, params: ZTangramIdParam, response: { 200: ZDevice } } }, (req) =>
    getDevice(db, principalOf(req), req.params.tangramId),
  );
  app.put(
    '/devices/:tangramId',
    { preHandler: requireVendor, schema: { tags, params: ZTangramIdParam, body: ZDeviceUpdate, response: { 200: ZDevice } } },
    (req) => updateDevice(db, principalOf(req), req.params.tangramId, req.body, changeAuditOf(req)),
  );
  app.get('/v2/devices/:tangramId', { ...auth, schema: { tags, params: ZTangramIdParam, response: { 200: ZDeviceDetail } } }, (req) =>
    getDeviceDetail(db, principalOf(req), req.params.tangramId),
  );
  app.put(
    '/v2/devices/:tangramId',
    { preHandler: requireVendor, schema: { tags, params: ZTangramIdParam, body: ZDeviceUpdate, response: { 200: ZDeviceDetail } } },
    async (req) => {
      await updateDevice(db, principalOf(req), req.params.tangramId, req.body, changeAuditOf(req));
      return getDeviceDetail(db, principalOf(req), req.params.tangramId);
    },
  );
  app.post(
    '/devices/:tangramId/secret',
    { preHandler: [requireVendor, requireSession], schema: { tags, params: ZTangramIdParam, response: { 200: ZDeviceSecret } } },
    (req) => rotateDeviceSecret(db, ctx.bus, req.log, principalOf(req), req.params.tangramId),
  );
  // A static path: it wins over `/devices/:tangramId` (find-my-way matches static segments first).
  app.get('/devices/getAccessAbleTenants', { ...auth, schema: { tags, response: { 200: ZAccessibleTenants } } }, (req) =>
    accessibleTenants(db, principalOf(req)),
  );
  app.get(
    '/devices/:tangramId/profile/telemetries',
    { ...auth, schema: { tags, params: ZTangramIdParam, response: { 200: ZDeviceTelemetryProfile } } },
    (req) => deviceTelemetryProfile(db, principalOf(req), req.params.tangramId),
  );
  app.get(
    '/devices/:tangramId/profile/status',
    { ...auth, schema: { tags, params: ZTangramIdParam, response: { 200: ZDeviceStatusProfile } } },
    (req) => deviceStatusProfile(db, principalOf(req), req.params.tangramId),
  );
  await deviceCertificateRoutes(app, ctx);
}
