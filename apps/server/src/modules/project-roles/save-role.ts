/**
 * Creating and replacing roles of every kind (spec §7 "project-role POST, PUT", device-role the same, machine role
 * CRUD; §5 "at least one permission and one device for a role" — the schemas'). Devices must be devices of the role's
 * project, machines the tenant's machines and members user accounts of the tenant; anything else answers 404 naming
 * it, as another tenant's id would (ids and emails cannot be probed). Creating checks the tenant's plan.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { TMachineRoleInput, TProjectRole, TProjectRoleCreate, TProjectRoleInput } from '@tessera/contracts';
import { ErrorCode } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { AppError, conflict } from '../../core/errors.js';
import { accounts, devices, machines, projectRoleDevices, projectRoleMachines, projectRoleMembers, projectRoles } from '../../db/schema.js';
import { requireWithinPlan } from '../package-policy/policy.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { ownedProjectId, ownedRole, presentRole } from './role-queries.js';

/** A 404 whose details name each missing item of the body field `field` by its index. */
function missing(what: string, field: string, indexes: number[], labels: string[]): AppError {
  const details = indexes.map((i) => ({ path: `body/${field}/${i}`, message: `${what} not found` }));
  return new AppError(404, ErrorCode.NotFound, `${what} not found: ${labels.join(', ')}`, details);
}

/** The ids in `wanted` that `found` lacks, as 404 details on body field `field`. @throws AppError 404 when any. */
function requireAll(what: string, field: string, wanted: number[], found: Set<number>): void {
  const absent = wanted.flatMap((id, i) => (found.has(id) ? [] : [i]));
  if (absent.length)
    throw missing(
      what,
      field,
      absent,
      absent.map((i) => String(wanted[i])),
    );
}

/** Checks that `deviceIds` are devices of the tenant's project `projectId`. @throws AppError 404 naming the others. */
async function checkDevices(tx: TDbOrTx, tenantId: number, projectId: number, deviceIds: number[]): Promise<void> {
  const found = await tx
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.tenantId, tenantId), eq(devices.projectId, projectId), inArray(devices.id, deviceIds)));
  requireAll('device', 'device_ids', deviceIds, new Set(found.map((d) => d.id)));
}

/** Checks that `machineIds` are the tenant's machines. @throws AppError 404 naming the others. */
async function checkMachines(tx: TDbOrTx, tenantId: number, machineIds: number[]): Promise<void> {
  const found = await tx
    .select({ id: machines.id })
    .from(machines)
    .where(and(eq(machines.tenantId, tenantId), inArray(machines.id, machineIds)));
  requireAll('machine', 'machine_ids', machineIds, new Set(found.map((m) => m.id)));
}

/**
 * The account ids of the members `emails`, inside `tx`.
 * @throws AppError 404 when an email is not a user of the tenant.
 */
async function memberIds(tx: TDbOrTx, tenantId: number, emails: string[]): Promise<number[]> {
  if (emails.length === 0) return [];
  const users = await tx
    .select({ id: accounts.id, email: accounts.email })
    .from(accounts)
    .where(and(eq(accounts.tenantId, tenantId), eq(accounts.level, 'user'), inArray(accounts.email, emails)));
  const byEmail = new Map(users.map((u) => [u.email, u.id]));
  const absent = emails.flatMap((email, i) => (byEmail.has(email) ? [] : [i]));
  if (absent.length) {
    throw missing(
      'user account',
      'member_emails',
      absent,
      absent.map((i) => emails[i]),
    );
  }
  return emails.map((email) => byEmail.get(email)!);
}

/** What a role holds: device ids (project and device roles) or machine ids (machine roles). */
type THoldings = { deviceIds: number[] } | { machineIds: number[] };

/** Replaces role `roleId`'s devices or machines, and its members. */
async function writeLinks(tx: TDbOrTx, roleId: number, holdings: THoldings, accountIds: number[]): Promise<void> {
  await tx.delete(projectRoleDevices).where(eq(projectRoleDevices.roleId, roleId));
  await tx.delete(projectRoleMachines).where(eq(projectRoleMachines.roleId, roleId));
  await tx.delete(projectRoleMembers).where(eq(projectRoleMembers.roleId, roleId));
  if ('deviceIds' in holdings) await tx.insert(projectRoleDevices).values(holdings.deviceIds.map((deviceId) => ({ roleId, deviceId })));
  else await tx.insert(projectRoleMachines).values(holdings.machineIds.map((machineId) => ({ roleId, machineId })));
  if (accountIds.length) await tx.insert(projectRoleMembers).values(accountIds.map((accountId) => ({ roleId, accountId })));
}

/** Runs `work`, turning the name index's unique violation into 409 CONFLICT. */
async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw isUniqueViolation(err) ? conflict(`a role named "${name}" already exists here`) : err;
  }
}

/**
 * Creates a `kind` role (project or device) in the tenant's project `input.project_id`, in one transaction.
 * @throws AppError 404 for a project, device or member that is not the tenant's; 403 PLAN_LIMIT when the plan
 *   excludes the kind or its role limit is reached; 409 CONFLICT when the project has a role of that kind and name
 *   (ignoring case).
 */
export async function createRole(db: Db, tenantId: number, kind: 'project' | 'device', input: TProjectRoleCreate): Promise<TProjectRole> {
  return uniqueName(input.name, () =>
    db.transaction(async (tx) => {
      const projectId = await ownedProjectId(tx, tenantId, input.project_id);
      await requireWithinPlan(tx, tenantId, 'roles', kind);
      await checkDevices(tx, tenantId, projectId, input.device_ids);
      const accountIds = await memberIds(tx, tenantId, input.member_emails);
      const [role] = await tx
        .insert(projectRoles)
        .values({ tenantId, projectId, kind, name: input.name, permissions: input.permissions, updatedAt: Date.now() })
        .returning();
      await writeLinks(tx, role.id, { deviceIds: input.device_ids }, accountIds);
      return presentRole(tx, role);
    }),
  );
}

/**
 * Replaces the tenant's `kind` role `id` (name, permissions, devices, members) in one transaction; members and
 * devices left out lose what the role gave them.
 * @throws AppError 404 when the role, a device or a member is not the tenant's; 409 CONFLICT on a duplicate name.
 */
export async function updateRole(
  db: Db,
  tenantId: number,
  kind: 'project' | 'device',
  id: number,
  input: TProjectRoleInput,
): Promise<TProjectRole> {
  return uniqueName(input.name, () =>
    db.transaction(async (tx) => {
      const role = await ownedRole(tx, tenantId, kind, id, true);
      await checkDevices(tx, tenantId, role.projectId!, input.device_ids);
      const accountIds = await memberIds(tx, tenantId, input.member_emails);
      const saved = await rename(tx, id, input);
      await writeLinks(tx, id, { deviceIds: input.device_ids }, accountIds);
      return presentRole(tx, saved);
    }),
  );
}

/**
 * Creates a machine role of the tenant, in one transaction.
 * @throws AppError 404 for a machine or member that is not the tenant's; 403 PLAN_LIMIT as {@link createRole};
 *   409 CONFLICT when the tenant has a machine role of that name (ignoring case).
 */
export async function createMachineRole(db: Db, tenantId: number, input: TMachineRoleInput): Promise<TProjectRole> {
  return uniqueName(input.name, () =>
    db.transaction(async (tx) => {
      await requireWithinPlan(tx, tenantId, 'roles', 'machine');
      await checkMachines(tx, tenantId, input.machine_ids);
      const accountIds = await memberIds(tx, tenantId, input.member_emails);
      const [role] = await tx
        .insert(projectRoles)
        .values({ tenantId, projectId: null, kind: 'machine', name: input.name, permissions: input.permissions, updatedAt: Date.now() })
        .returning();
      await writeLinks(tx, role.id, { machineIds: input.machine_ids }, accountIds);
      return presentRole(tx, role);
    }),
  );
}

/**
 * Replaces the tenant's machine role `id` (name, permissions, machines, members) in one transaction.
 * @throws AppError 404 when the role, a machine or a member is not the tenant's; 409 CONFLICT on a duplicate name.
 */
export async function updateMachineRole(db: Db, tenantId: number, id: number, input: TMachineRoleInput): Promise<TProjectRole> {
  return uniqueName(input.name, () =>
    db.transaction(async (tx) => {
      await ownedRole(tx, tenantId, 'machine', id, true);
      await checkMachines(tx, tenantId, input.machine_ids);
      const accountIds = await memberIds(tx, tenantId, input.member_emails);
      const saved = await rename(tx, id, input);
      await writeLinks(tx, id, { machineIds: input.machine_ids }, accountIds);
      return presentRole(tx, saved);
    }),
  );
}

/** Sets role `id`'s name and permissions; answers the saved row. */
async function rename(tx: TDbOrTx, id: number, input: { name: string; permissions: TProjectRoleInput['permissions'] }) {
  const [saved] = await tx
    .update(projectRoles)
    .set({ name: input.name, permissions: input.permissions, updatedAt: Date.now() })
    .where(eq(projectRoles.id, id))
    .returning();
  return saved;
}
