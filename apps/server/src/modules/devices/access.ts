/**
 * Who may see which device (spec §6): vendors and admins see their tenant's devices; users see the devices
 * authorised to them (`device_authz`). Used by every device-scoped route and by the live channel.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceAuthz, devices } from '../../db/schema.js';
import type { TPrincipal } from '../../core/principal.js';

/** The device row a caller may see. */
export type TDeviceRow = typeof devices.$inferSelect;

/** A WHERE clause limiting `devices` to those `principal` may see (join-free for vendors). */
export function visibleDevicesWhere(principal: TPrincipal): SQL {
  if (principal.level === 'user') {
    return and(eq(devices.tenantId, principal.tenantId), eq(deviceAuthz.accountId, principal.accountId))!;
  }
  return eq(devices.tenantId, principal.tenantId);
}

/**
 * The device with `tangramId` if `principal` may see it, else null (a foreign device and a missing one look
 * the same, so IDs of other tenants cannot be probed).
 */
export async function findVisibleDevice(db: Db, principal: TPrincipal, tangramId: string): Promise<TDeviceRow | null> {
  return findVisible(db, principal, eq(devices.tangramId, tangramId.toUpperCase()));
}

/** As {@link findVisibleDevice}, by numeric id. */
export async function findVisibleDeviceById(db: Db, principal: TPrincipal, id: number): Promise<TDeviceRow | null> {
  return findVisible(db, principal, eq(devices.id, id));
}

async function findVisible(db: Db, principal: TPrincipal, match: SQL): Promise<TDeviceRow | null> {
  const base = db.select({ device: devices }).from(devices);
  const query =
    principal.level === 'user'
      ? base.innerJoin(deviceAuthz, eq(deviceAuthz.deviceId, devices.id)).where(and(match, visibleDevicesWhere(principal)))
      : base.where(and(match, visibleDevicesWhere(principal)));
  const [row] = await query.limit(1);
  return row?.device ?? null;
}

/**
 * As {@link visibleDevicesWhere} but join-free for every level: a user's devices are matched through a
 * `device_authz` subquery, so list and count queries can add it to any select over `devices`.
 */
export function visibleDevicesCondition(principal: TPrincipal): SQL {
  const ofTenant = eq(devices.tenantId, principal.tenantId);
  if (principal.level !== 'user') return ofTenant;
  const authorised = sql`${devices.id} in (select ${deviceAuthz.deviceId} from ${deviceAuthz} where ${deviceAuthz.accountId} = ${principal.accountId})`;
  return and(ofTenant, authorised)!;
}
