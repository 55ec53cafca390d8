/**
 * Who may see which device (spec §6): vendors and admins see their tenant's devices; users see the devices
 * authorised to them (`device_authz`) and the devices of the project roles they hold (project-roles/grants.ts).
 * Used by every device-scoped route and by the live channel.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceAuthz, devices } from '../../db/schema.js';
import type { TPrincipal } from '../../core/principal.js';
import { roleGrantedDeviceIds } from '../project-roles/grants.js';

/** The device row a caller may see. */
export type TDeviceRow = typeof devices.$inferSelect;

/** A WHERE clause limiting `devices` to those `principal` may see (join-free: {@link visibleDevicesCondition}). */
export function visibleDevicesWhere(principal: TPrincipal): SQL {
  return visibleDevicesCondition(principal);
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
  const [row] = await db
    .select({ device: devices })
    .from(devices)
    .where(and(match, visibleDevicesCondition(principal)))
    .limit(1);
  return row?.device ?? null;
}

/**
 * A join-free WHERE clause over `devices` for every level: the tenant's devices, and for a user only those in the
 * union of its `device_authz` rows and its project roles' devices (a subquery), so list and count queries can add
 * it to any select over `devices`. The tenant condition stays for users too: tenant isolation never rests on the
 * grants alone.
 */
export function visibleDevicesCondition(principal: TPrincipal): SQL {
  const ofTenant = eq(devices.tenantId, principal.tenantId);
  if (principal.level !== 'user') return ofTenant;
  const direct = sql`select ${deviceAuthz.deviceId} from ${deviceAuthz} where ${deviceAuthz.accountId} = ${principal.accountId}`;
  const authorised = sql`${devices.id} in (${direct} union ${roleGrantedDeviceIds(principal.accountId)})`;
  return and(ofTenant, authorised)!;
}
