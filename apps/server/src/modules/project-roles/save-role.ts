/**
 * Creating and replacing project roles (spec §7 "project-role POST, PUT"; §5 "at least one permission and one device
 * for a role" — the schema's). Devices must be devices of the role's project and members user accounts of the
 * tenant; anything else answers 404 naming it, as another tenant's id would (ids and emails cannot be probed).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { TProjectRole, TProjectRoleCreate, TProjectRoleInput } from '@tessera/contracts';
import { ErrorCode } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { AppError, conflict } from '../../core/errors.js';
import { accounts, devices, projectRoleDevices, projectRoleMembers, projectRoles } from '../../db/schema.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import { ownedProjectId, ownedRole, presentRole } from './role-queries.js';

/** A 404 whose details name each missing item of the body field `field` by its index. */
function missing(what: string, field: string, indexes: number[], labels: string[]): AppError {
  const details = indexes.map((i) => ({ path: `body/${field}/${i}`, message: `${what} not found` }));
  return new AppError(404, ErrorCode.NotFound, `${what} not found: ${labels.join(', ')}`, details);
}

/**
 * The account ids of `input`'s members and checks its devices, inside `tx`.
 * @throws AppError 404 when a device is not one of project `projectId`'s or an email is not a user of the tenant.
 */
async function resolveRefs(tx: TDbOrTx, tenantId: number, projectId: number, input: TProjectRoleInput): Promise<number[]> {
  const found = await tx
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.tenantId, tenantId), eq(devices.projectId, projectId), inArray(devices.id, input.device_ids)));
  const deviceIds = new Set(found.map((d) => d.id));
  const absentDevices = input.device_ids.flatMap((id, i) => (deviceIds.has(id) ? [] : [i]));
  if (absentDevices.length) {
    throw missing(
      'device',
      'device_ids',
      absentDevices,
      absentDevices.map((i) => String(input.device_ids[i])),
    );
  }
  if (input.member_emails.length === 0) return [];
  const users = await tx
    .select({ id: accounts.id, email: accounts.email })
    .from(accounts)
    .where(and(eq(accounts.tenantId, tenantId), eq(accounts.level, 'user'), inArray(accounts.email, input.member_emails)));
  const byEmail = new Map(users.map((u) => [u.email, u.id]));
  const absentMembers = input.member_emails.flatMap((email, i) => (byEmail.has(email) ? [] : [i]));
  if (absentMembers.length) {
    throw missing(
      'user account',
      'member_emails',
      absentMembers,
      absentMembers.map((i) => input.member_emails[i]),
    );
  }
  return input.member_emails.map((email) => byEmail.get(email)!);
}

/** Replaces role `roleId`'s devices and members. */
async function writeLinks(tx: TDbOrTx, roleId: number, deviceIds: number[], accountIds: number[]): Promise<void> {
  await tx.delete(projectRoleDevices).where(eq(projectRoleDevices.roleId, roleId));
  await tx.delete(projectRoleMembers).where(eq(projectRoleMembers.roleId, roleId));
  await tx.insert(projectRoleDevices).values(deviceIds.map((deviceId) => ({ roleId, deviceId })));
  if (accountIds.length) await tx.insert(projectRoleMembers).values(accountIds.map((accountId) => ({ roleId, accountId })));
}

/** Runs `work`, turning the name index's unique violation into 409 CONFLICT. */
async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw isUniqueViolation(err) ? conflict(`a role named "${name}" already exists in this project`) : err;
  }
}

/**
 * Creates a role in the tenant's project `input.project_id`, in one transaction.
 * @throws AppError 404 for a project, device or member that is not the tenant's (see {@link resolveRefs});
 *   409 CONFLICT when the project has a role of that name (ignoring case).
 */
export async function createProjectRole(db: Db, tenantId: number, input: TProjectRoleCreate): Promise<TProjectRole> {
  return uniqueName(input.name, () =>
    db.transaction(async (tx) => {
      const projectId = await ownedProjectId(tx, tenantId, input.project_id);
      const accountIds = await resolveRefs(tx, tenantId, projectId, input);
      const [role] = await tx
        .insert(projectRoles)
        .values({ tenantId, projectId, name: input.name, permissions: input.permissions, updatedAt: Date.now() })
        .returning();
      await writeLinks(tx, role.id, input.device_ids, accountIds);
      return presentRole(tx, role);
    }),
  );
}

/**
 * Replaces the tenant's role `id` (name, permissions, devices, members) in one transaction; members and devices left
 * out lose what the role gave them.
 * @throws AppError 404 when the role, a device or a member is not the tenant's; 409 CONFLICT on a duplicate name.
 */
export async function updateProjectRole(db: Db, tenantId: number, id: number, input: TProjectRoleInput): Promise<TProjectRole> {
  return uniqueName(input.name, () =>
    db.transaction(async (tx) => {
      const role = await ownedRole(tx, tenantId, id, true);
      const accountIds = await resolveRefs(tx, tenantId, role.projectId, input);
      const [saved] = await tx
        .update(projectRoles)
        .set({ name: input.name, permissions: input.permissions, updatedAt: Date.now() })
        .where(eq(projectRoles.id, id))
        .returning();
      await writeLinks(tx, id, input.device_ids, accountIds);
      return presentRole(tx, saved);
    }),
  );
}
