/**
 * Gateways in the console (docs/decisions/device-apis.md "Gateway"): marking a device as a gateway — which lets its
 * access-token login publish for other devices on ThingsBoard's `v1/gateway/…` topics — and the devices seen behind
 * one. Turning the flag either way closes the device's connections on every replica (the device-revocation channel),
 * so its next login is judged by the new flag; the devices it held go offline then.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { TDeviceGatewayFlag, TDeviceGatewayState, TGatewayChildren } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TMessageBus } from '../../core/context.js';
import { notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { devices } from '../../db/schema.js';
import { findVisibleDevice, visibleDevicesWhere } from '../devices/access.js';
import { isOnline } from '../devices/presenters.js';

/**
 * Marks device `tangramId` as a gateway or not, and answers the flag now.
 * @throws AppError 404 when the device does not exist or `principal` may not see it (another tenant's).
 */
export async function setGatewayFlag(
  db: Db,
  bus: TMessageBus,
  log: Pick<Logger, 'info' | 'error'>,
  principal: TPrincipal,
  tangramId: string,
  flag: TDeviceGatewayFlag,
): Promise<TDeviceGatewayState> {
  const device = await findVisibleDevice(db, principal, tangramId);
  if (!device) throw notFound('device');
  if (device.isGateway !== flag.is_gateway) {
    await db.update(devices).set({ isGateway: flag.is_gateway }).where(eq(devices.id, device.id));
    log.info({ accountId: principal.accountId, tangramId: device.tangramId, isGateway: flag.is_gateway }, 'device gateway flag changed');
    try {
      await bus.revokeDevice(device.tangramId);
    } catch (err) {
      log.error({ err, tangramId: device.tangramId }, 'gateway flag changed, but the device connections on other replicas were not closed');
    }
  }
  return { tangram_id: device.tangramId, is_gateway: flag.is_gateway };
}

/**
 * The devices last connected behind gateway `tangramId` that `principal` may see, by name: online as the device list
 * says, and `connected` while the gateway holds them (it said connect, and not disconnect, and its connection is up).
 * @throws AppError 404 when the gateway does not exist or `principal` may not see it; 403 without `view_telemetry`.
 */
export async function gatewayChildren(db: Db, principal: TPrincipal, tangramId: string, nowMs = Date.now()): Promise<TGatewayChildren> {
  const gateway = await findVisibleDevice(db, principal, tangramId, 'view_telemetry');
  if (!gateway) throw notFound('device');
  const rows = await db
    .select({ tangramId: devices.tangramId, name: devices.name, lastSeenAt: devices.lastSeenAt, leftAt: devices.gatewayLeftAt })
    .from(devices)
    .where(and(eq(devices.gatewayId, gateway.id), eq(devices.tenantId, gateway.tenantId), visibleDevicesWhere(principal)))
    .orderBy(asc(devices.name), asc(devices.id));
  return {
    tangram_id: gateway.tangramId,
    items: rows.map((r) => {
      const online = isOnline(r.lastSeenAt, nowMs, r.leftAt);
      return { tangram_id: r.tangramId, name: r.name, online, connected: online && r.leftAt === null, last_seen_at: r.lastSeenAt };
    }),
  };
}
