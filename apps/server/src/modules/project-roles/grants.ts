/**
 * What roles grant (docs/decisions/project-roles.md "How members see devices", docs/decisions/roles.md): a member of
 * a role sees the role's devices — a project or device role's own devices, a machine role's machines' bound devices —
 * read through a join at query time: nothing is written into `device_authz`, so removing a member, a device, a machine
 * or a binding takes away exactly what the role gave and never touches authorisations granted otherwise. Used by
 * devices/access.ts (every device-scoped route and the live channel).
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { TProjectRolePermission } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { machineBindings, projectRoleDevices, projectRoleMachines, projectRoleMembers, projectRoles } from '../../db/schema.js';

/**
 * A derived table `(role_id, device_id)`: every device each role holds, whatever its kind — the devices of project
 * and device roles and the devices bound to the machines of machine roles. Aliased `role_device`.
 */
const roleDevices = sql`(select ${projectRoleDevices.roleId} as role_id, ${projectRoleDevices.deviceId} as device_id from ${projectRoleDevices}
  union all select ${projectRoleMachines.roleId}, ${machineBindings.deviceId} from ${projectRoleMachines}
  inner join ${machineBindings} on ${machineBindings.machineId} = ${projectRoleMachines.machineId}) as role_device`;

/** `and the role includes permission` over `projectRoles` joined by id, or nothing without a permission. */
const including = (permission?: TProjectRolePermission): SQL =>
  permission ? sql` and ${projectRoles.permissions} @> ${JSON.stringify([permission])}::jsonb` : sql``;

/**
 * A `select device_id …` subquery: the ids of the devices granted to account `accountId` by the roles it holds —
 * with `permission`, only by roles that include that permission. Callers keep their own tenant condition on
 * `devices` (roles only ever hold their tenant's devices and users).
 */
export function roleGrantedDeviceIds(accountId: number, permission?: TProjectRolePermission): SQL {
  return sql`select role_device.device_id from ${roleDevices}
    inner join ${projectRoleMembers} on ${projectRoleMembers.roleId} = role_device.role_id
    inner join ${projectRoles} on ${projectRoles.id} = role_device.role_id
    where ${projectRoleMembers.accountId} = ${accountId}${including(permission)}`;
}

/**
 * A `select account_id …` subquery: the users granted device `deviceId` by a role — with `permission`, by a role
 * that includes it (the inverse of {@link roleGrantedDeviceIds}, for "who hears of this device").
 */
export function roleMemberIdsOf(deviceId: number | SQL, permission?: TProjectRolePermission): SQL {
  return sql`select ${projectRoleMembers.accountId} from ${roleDevices}
    inner join ${projectRoleMembers} on ${projectRoleMembers.roleId} = role_device.role_id
    inner join ${projectRoles} on ${projectRoles.id} = role_device.role_id
    where role_device.device_id = ${deviceId}${including(permission)}`;
}

/**
 * The permissions account `accountId` holds on device `deviceId` of tenant `tenantId` through its roles (the union
 * over its roles that hold the device), sorted; empty when no role grants the device.
 */
export async function rolePermissionsOn(db: Db, tenantId: number, accountId: number, deviceId: number): Promise<TProjectRolePermission[]> {
  const rows = await db
    .select({ permissions: projectRoles.permissions })
    .from(projectRoles)
    .innerJoin(projectRoleMembers, eq(projectRoleMembers.roleId, projectRoles.id))
    .where(
      and(
        eq(projectRoles.tenantId, tenantId),
        eq(projectRoleMembers.accountId, accountId),
        sql`${projectRoles.id} in (select role_device.role_id from ${roleDevices} where role_device.device_id = ${deviceId})`,
      ),
    );
  return [...new Set(rows.flatMap((r) => r.permissions))].sort();
}

/**
 * A `select machine_id …` subquery: the machines granted to account `accountId` by the machine roles it holds — with
 * `permission`, only by roles that include it (`manage_access`: the machines it manages).
 */
export function roleGrantedMachineIds(accountId: number, permission?: TProjectRolePermission): SQL {
  return sql`select ${projectRoleMachines.machineId} from ${projectRoleMachines}
    inner join ${projectRoleMembers} on ${projectRoleMembers.roleId} = ${projectRoleMachines.roleId}
    inner join ${projectRoles} on ${projectRoles.id} = ${projectRoleMachines.roleId}
    where ${projectRoleMembers.accountId} = ${accountId}${including(permission)}`;
}
