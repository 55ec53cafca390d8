/**
 * Reading roles of a tenant (spec §7 "project-role … GET project/{id}", device-role the same, machine roles), with
 * their devices, machines and members.
 */
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TListQuery, TPage, TProjectRole, TRoleKind } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { notFound } from '../../core/errors.js';
import {
  accounts,
  devices,
  machines,
  projectRoleDevices,
  projectRoleMachines,
  projectRoleMembers,
  projectRoles,
  projects,
} from '../../db/schema.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { pageOf } from '../../db/paging.js';
import { searchAny } from '../../db/sql-helpers.js';
import { presentProjectRole, type TProjectRoleView } from './presenters.js';

type TRoleRow = typeof projectRoles.$inferSelect;

/** The tenant's project `projectId`. @throws AppError 404 when it is missing or another tenant's. */
export async function ownedProjectId(db: TDbOrTx, tenantId: number, projectId: number): Promise<number> {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.tenantId, tenantId)));
  if (!row) throw notFound('project');
  return row.id;
}

/**
 * The tenant's role `id` of kind `kind`; `lock` takes a row lock (FOR UPDATE) so a concurrent edit and delete
 * serialise. @throws AppError 404 when it is missing, another tenant's or of another kind (a device-role path never
 * reaches a project role).
 */
export async function ownedRole(db: TDbOrTx, tenantId: number, kind: TRoleKind, id: number, lock = false): Promise<TRoleRow> {
  const query = db
    .select()
    .from(projectRoles)
    .where(and(eq(projectRoles.id, id), eq(projectRoles.tenantId, tenantId), eq(projectRoles.kind, kind)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(`${kind} role`);
  return row;
}

/** `roles` with their devices, machines and member emails, in the order given. */
export async function viewsOf(db: TDbOrTx, roles: TRoleRow[]): Promise<TProjectRoleView[]> {
  if (roles.length === 0) return [];
  const ids = roles.map((r) => r.id);
  const [deviceRows, machineRows, memberRows] = await Promise.all([
    db
      .select({ roleId: projectRoleDevices.roleId, id: devices.id, tangramId: devices.tangramId, name: devices.name })
      .from(projectRoleDevices)
      .innerJoin(devices, eq(devices.id, projectRoleDevices.deviceId))
      .where(inArray(projectRoleDevices.roleId, ids)),
    db
      .select({ roleId: projectRoleMachines.roleId, id: machines.id, name: machines.name })
      .from(projectRoleMachines)
      .innerJoin(machines, eq(machines.id, projectRoleMachines.machineId))
      .where(inArray(projectRoleMachines.roleId, ids)),
    db
      .select({ roleId: projectRoleMembers.roleId, email: accounts.email })
      .from(projectRoleMembers)
      .innerJoin(accounts, eq(accounts.id, projectRoleMembers.accountId))
      .where(inArray(projectRoleMembers.roleId, ids)),
  ]);
  return roles.map((role) => ({
    role,
    devices: deviceRows.filter((d) => d.roleId === role.id),
    machines: machineRows.filter((m) => m.roleId === role.id),
    memberEmails: memberRows.filter((m) => m.roleId === role.id).map((m) => m.email),
  }));
}

/** The role `role` presented. */
export async function presentRole(db: TDbOrTx, role: TRoleRow): Promise<TProjectRole> {
  const [view] = await viewsOf(db, [role]);
  return presentProjectRole(view);
}

/**
 * A page of the tenant's roles of kind `kind` — of project `projectId` for project and device roles, all of them for
 * machine roles (`projectId` null) — by name (case-insensitive); `q` matches the name.
 * @throws AppError 404 when the project is missing or another tenant's.
 */
export async function listRoles(
  db: Db,
  tenantId: number,
  kind: TRoleKind,
  projectId: number | null,
  query: TListQuery,
): Promise<TPage<TProjectRole>> {
  if (projectId !== null) await ownedProjectId(db, tenantId, projectId);
  const where = and(
    eq(projectRoles.tenantId, tenantId),
    eq(projectRoles.kind, kind),
    projectId === null ? isNull(projectRoles.projectId) : eq(projectRoles.projectId, projectId),
    searchAny(query.q, [projectRoles.name]),
  );
  const page = await pageOf(
    query,
    db.select({ total: count() }).from(projectRoles).where(where),
    (limit, offset) =>
      db
        .select()
        .from(projectRoles)
        .where(where)
        .orderBy(asc(sql`lower(${projectRoles.name})`), asc(projectRoles.id))
        .limit(limit)
        .offset(offset),
    (row) => row,
  );
  return { ...page, data: (await viewsOf(db, page.data)).map(presentProjectRole) };
}

/** The account ids of role `roleId`'s members (any kind; the caller has checked the role is the tenant's, or reads it
 * only to tell those accounts of a change). */
export async function roleMemberIds(db: TDbOrTx, roleId: number): Promise<number[]> {
  const rows = await db
    .select({ accountId: projectRoleMembers.accountId })
    .from(projectRoleMembers)
    .where(eq(projectRoleMembers.roleId, roleId));
  return rows.map((r) => r.accountId);
}
