/**
 * `/frontstage/v1/devices/{tangramId}/credentials` (docs/decisions/device-apis.md "Access tokens"): GET answers the
 * device's access token masked, POST issues a new one and answers it once in full. Vendors and admins of the device's
 * tenant only (credentials are the vendor's, as registration and the MQTT secret are); POST needs a signed-in
 * session, not an API key, like regenerating the secret (docs/decisions/devices-bulk.md).
 */
import { ZDeviceCredentials, ZDeviceGatewayFlag, ZDeviceGatewayState, ZGatewayChildren, ZTangramIdParam } from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAuth, requireVendor } from '../../core/principal.js';
import { requireSession } from '../auth/session-guard.js';
import { readDeviceCredentials, rotateDeviceAccessToken } from './credentials.js';
import { gatewayChildren, setGatewayFlag } from './gateways.js';

const tags = ['devices'];

/** Registers the device-credentials routes (prefix `/frontstage/v1`). */
export async function deviceCredentialRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const schema = { tags, params: ZTangramIdParam, response: { 200: ZDeviceCredentials } };
  const read = { ...schema, summary: "A device's access token, masked, and when it was issued" };
  const rotate = { ...schema, summary: 'Issue the device a new access token, answered once in full' };
  app.get('/devices/:tangramId/credentials', { preHandler: requireVendor, schema: read }, (req) =>
    readDeviceCredentials(ctx.db, principalOf(req), req.params.tangramId),
  );
  app.post('/devices/:tangramId/credentials', { preHandler: [requireVendor, requireSession], schema: rotate }, (req) =>
    rotateDeviceAccessToken(ctx.db, ctx.bus, req.log, principalOf(req), req.params.tangramId),
  );
  // Gateways (docs/decisions/device-apis.md "Gateway"): the flag is the vendor's, the devices behind are anyone's who sees it.
  const flagSchema = {
    tags,
    params: ZTangramIdParam,
    body: ZDeviceGatewayFlag,
    response: { 200: ZDeviceGatewayState },
    summary: 'Mark a device as a gateway (ThingsBoard gateway API), or not; closes its connections',
  };
  app.put('/devices/:tangramId/gateway', { preHandler: requireVendor, schema: flagSchema }, (req) =>
    setGatewayFlag(ctx.db, ctx.bus, req.log, principalOf(req), req.params.tangramId, req.body),
  );
  const childrenSchema = {
    tags,
    params: ZTangramIdParam,
    response: { 200: ZGatewayChildren },
    summary: 'The devices seen behind a gateway',
  };
  app.get('/devices/:tangramId/gateway/devices', { preHandler: requireAuth, schema: childrenSchema }, (req) =>
    gatewayChildren(ctx.db, principalOf(req), req.params.tangramId),
  );
}
