/**
 * What project roles grant (docs/decisions/project-roles.md "How members see devices"): a member of a role sees the
 * role's devices, read through a join at query time — nothing is written into `device_authz`, so removing a member
 * or a device from a role takes away exactly what the role gave and never touches authorisations granted otherwise.
 * Used by devices/access.ts (every device-scoped route and the live channel).
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { TProjectRolePermission } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { devices, projectRoleDevices, projectRoleMembers, projectRoles } from '../../db/schema.js';

/**
 * A `select device_id …` subquery: the ids of the devices granted to account `accountId` by the roles it holds —
 * with `permission`, only by roles that include that permission. Callers keep their own tenant condition on
 * `devices` (roles only ever hold their tenant's devices and users).
 */
export function roleGrantedDeviceIds(accountId: number, permission?: TProjectRolePermission): SQL {
  const held = sql`select ${projectRoleDevices.deviceId} from ${projectRoleDevices} inner join ${projectRoleMembers} on ${projectRoleMembers.roleId} = ${projectRoleDevices.roleId}`;
  if (!permission) return sql`${held} where ${projectRoleMembers.accountId} = ${accountId}`;
  return sql`${held} inner join ${projectRoles} on ${projectRoles.id} = ${projectRoleDevices.roleId}
    where ${projectRoleMembers.accountId} = ${accountId} and ${projectRoles.permissions} @> ${JSON.stringify([permission])}::jsonb`;
}

/**
 * A `select account_id …` subquery: the users granted device `deviceId` by a role — with `permission`, by a role
 * that includes it (the inverse of {@link roleGrantedDeviceIds}, for "who hears of this device").
 */
export function roleMemberIdsOf(deviceId: number | SQL, permission?: TProjectRolePermission): SQL {
  const held = sql`select ${projectRoleMembers.accountId} from ${projectRoleMembers} inner join ${projectRoleDevices} on ${projectRoleDevices.roleId} = ${projectRoleMembers.roleId}`;
  if (!permission) return sql`${held} where ${projectRoleDevices.deviceId} = ${deviceId}`;
  return sql`${held} inner join ${projectRoles} on ${projectRoles.id} = ${projectRoleMembers.roleId}
    where ${projectRoleDevices.deviceId} = ${deviceId} and ${projectRoles.permissions} @> ${JSON.stringify([permission])}::jsonb`;
}

/**
 * The permissions account `accountId` holds on device `deviceId` of tenant `tenantId` through its roles (the union
 * over its roles that include the device), sorted; empty when no role grants the device.
 */
export async function rolePermissionsOn(db: Db, tenantId: number, accountId: number, deviceId: number): Promise<TProjectRolePermission[]> {
  const rows = await db
    .select({ permissions: projectRoles.permissions })
    .from(projectRoles)
    .innerJoin(projectRoleDevices, eq(projectRoleDevices.roleId, projectRoles.id))
    .innerJoin(projectRoleMembers, eq(projectRoleMembers.roleId, projectRoles.id))
    .innerJoin(devices, eq(devices.id, projectRoleDevices.deviceId))
    .where(
      and(
        eq(projectRoles.tenantId, tenantId),
        eq(devices.tenantId, tenantId),
        eq(projectRoleDevices.deviceId, deviceId),
        eq(projectRoleMembers.accountId, accountId),
      ),
    );
  return [...new Set(rows.flatMap((r) => r.permissions))].sort();
}
