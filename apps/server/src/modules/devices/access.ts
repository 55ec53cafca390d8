/**
 * The one permission function (spec §6; docs/decisions/roles.md, docs/decisions/project-roles.md "What each
 * permission lets a member do", docs/decisions/authorisation.md): who may see which device and do what with it.
 * Vendors and admins see their tenant's devices and may do everything there; users see the devices granted to them
 * directly (`device_authz`, the devices of the projects in `project_authz` and of the machines in `machine_authz`:
 * everything a user may do but manage access) and the devices of the roles they hold, of every kind
 * (project-roles/grants.ts), where each role permission opens the routes it names. Every device-scoped route
 * ({@link deviceFor}), the live channel's subscribe ACL and revocation ({@link findVisibleDevice}), alert visibility,
 * notification audiences and authorisation managers ask {@link visibleDevicesCondition}.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { ErrorCode, PROJECT_ROLE_PERMISSIONS, type TProjectRolePermission } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { deviceAuthz, devices, machineAuthz, machineBindings, projectAuthz } from '../../db/schema.js';
import { AppError, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { roleGrantedDeviceIds, rolePermissionsOn } from '../project-roles/grants.js';

/** What a device-scoped route needs beyond seeing the device: one of the project-role permissions. */
export type TDevicePermission = TProjectRolePermission;

/** The device row a caller may see. */
export type TDeviceRow = typeof devices.$inferSelect;

/** A WHERE clause limiting `devices` to those `principal` may see (join-free: {@link visibleDevicesCondition}). */
export function visibleDevicesWhere(principal: TPrincipal): SQL {
  return visibleDevicesCondition(principal);
}

/**
 * The device with `tangramId` if `principal` may see it (and, with `permission`, holds that permission on it), else
 * null (a foreign device and a missing one look the same, so IDs of other tenants cannot be probed).
 */
export async function findVisibleDevice(
  db: Db,
  principal: TPrincipal,
  tangramId: string,
  permission?: TDevicePermission,
): Promise<TDeviceRow | null> {
  return findVisible(db, principal, eq(devices.tangramId, tangramId.toUpperCase()), permission);
}

/** As {@link findVisibleDevice}, by numeric id. */
export async function findVisibleDeviceById(db: Db, principal: TPrincipal, id: number): Promise<TDeviceRow | null> {
  return findVisible(db, principal, eq(devices.id, id));
}

async function findVisible(db: Db, principal: TPrincipal, match: SQL, permission?: TDevicePermission): Promise<TDeviceRow | null> {
  const [row] = await db
    .select({ device: devices })
    .from(devices)
    .where(and(match, visibleDevicesCondition(principal, permission)))
    .limit(1);
  return row?.device ?? null;
}

/**
 * A join-free WHERE clause over `devices` for every level: the tenant's devices, and for a user only those in the
 * union of its `device_authz` rows and its project roles' devices (a subquery) — with `permission`, only roles that
 * include it — so list and count queries can add it to any select over `devices`. The tenant condition stays for
 * users too: tenant isolation never rests on the grants alone.
 */
export function visibleDevicesCondition(principal: TPrincipal, permission?: TDevicePermission): SQL {
  const ofTenant = eq(devices.tenantId, principal.tenantId);
  if (principal.level !== 'user') return ofTenant;
  const byRole = roleGrantedDeviceIds(principal.accountId, permission);
  // A direct grant (an allowed request) gives every permission but managing the device's access.
  const authorised =
    permission === 'manage_access'
      ? sql`${devices.id} in (${byRole})`
      : sql`${devices.id} in (${directlyAuthorisedIds(principal.accountId)} union ${byRole})`;
  return and(ofTenant, authorised)!;
}

/**
 * A `select device_id …` subquery: the devices granted to `accountId` directly: its `device_authz` rows, every
 * device of the projects granted in `project_authz` and every device bound to the machines granted in
 * `machine_authz` (allowed authorisation requests).
 */
export function directlyAuthorisedIds(accountId: number): SQL {
  return sql`select ${deviceAuthz.deviceId} from ${deviceAuthz} where ${deviceAuthz.accountId} = ${accountId}
    union select ${devices.id} from ${devices} join ${projectAuthz} on ${projectAuthz.projectId} = ${devices.projectId}
    where ${projectAuthz.accountId} = ${accountId}
    union select ${machineBindings.deviceId} from ${machineBindings} join ${machineAuthz} on ${machineAuthz.machineId} = ${machineBindings.machineId}
    where ${machineAuthz.accountId} = ${accountId}`;
}

/**
 * A `select account_id …` subquery: the accounts granted device `deviceId` (a number or a column reference) directly,
 * through `device_authz`, a `project_authz` grant of its project or a `machine_authz` grant of the machine it is bound
 * to. The inverse of {@link directlyAuthorisedIds}.
 */
export function directGrantHolderIds(deviceId: number | SQL): SQL {
  return sql`select ${deviceAuthz.accountId} from ${deviceAuthz} where ${deviceAuthz.deviceId} = ${deviceId}
    union select ${projectAuthz.accountId} from ${projectAuthz}
    where ${projectAuthz.projectId} = (select ${devices.projectId} from ${devices} where ${devices.id} = ${deviceId})
    union select ${machineAuthz.accountId} from ${machineAuthz} join ${machineBindings} on ${machineBindings.machineId} = ${machineAuthz.machineId}
    where ${machineBindings.deviceId} = ${deviceId}`;
}

/**
 * What `principal` may do with device `deviceId` (which it sees), in {@link PROJECT_ROLE_PERMISSIONS} order for
 * vendors, admins and direct grants: every permission for vendors and admins; for a user authorised to it directly
 * every permission but `manage_access` (which only a role gives), with its roles' on top; otherwise the union of the
 * permissions of the roles that hold it, sorted. The same answer as {@link visibleDevicesCondition} per permission
 * (property-tested: roles/permission-table.int.test.ts).
 */
export async function devicePermissions(db: Db, principal: TPrincipal, deviceId: number): Promise<TDevicePermission[]> {
  if (principal.level !== 'user') return [...PROJECT_ROLE_PERMISSIONS];
  const [direct] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.id, deviceId), sql`${devices.id} in (${directlyAuthorisedIds(principal.accountId)})`))
    .limit(1);
  const byRole = await rolePermissionsOn(db, principal.tenantId, principal.accountId, deviceId);
  if (!direct) return byRole;
  return PROJECT_ROLE_PERMISSIONS.filter((p) => p !== 'manage_access' || byRole.includes(p));
}

/**
 * A boolean SQL expression over a `devices` row that `principal` sees: whether it holds `permission` on that device
 * (true without a permission, and for vendors and admins, who hold every permission on what they see). Lets a caller
 * ask visibility and permission in the query that reads the device's data ({@link deviceFor}).
 */
export function holdsPermission(principal: TPrincipal, permission?: TDevicePermission): SQL<boolean> {
  if (!permission || principal.level !== 'user') return sql<boolean>`true`;
  return sql<boolean>`coalesce((${visibleDevicesCondition(principal, permission)}), false)`;
}

/** The 403 of a caller that sees a device but holds none of the grants that give `permission`. */
export function devicePermissionDenied(permission: TDevicePermission | undefined): AppError {
  return new AppError(403, ErrorCode.DevicePermissionDenied, `your role on this device does not include ${permission}`);
}

/**
 * The device `tangramId` for a route that needs `permission` (or only visibility, without one), in one query: every
 * device-scoped request asks this first, and a dashboard opens dozens at once.
 * @throws AppError 404 when the device is missing or `principal` may not see it (foreign and missing alike);
 * 403 DEVICE_PERMISSION_DENIED when it may see the device but none of its grants includes `permission`.
 */
export async function deviceFor(db: Db, principal: TPrincipal, tangramId: string, permission?: TDevicePermission): Promise<TDeviceRow> {
  const [row] = await db
    .select({ device: devices, permitted: holdsPermission(principal, permission) })
    .from(devices)
    .where(and(eq(devices.tangramId, tangramId.toUpperCase()), visibleDevicesCondition(principal)))
    .limit(1);
  if (!row) throw notFound('device');
  if (!row.permitted) throw devicePermissionDenied(permission);
  return row.device;
}
