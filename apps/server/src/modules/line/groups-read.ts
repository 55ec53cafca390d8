/**
 * Reading message-flow groups (console "line-notify/group" and "group/{id}"): the presenter that fixes their API
 * shape — projects by name, members with labels and whether a push reaches them now.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { TLineGroup } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { lineGroupProjects, lineGroups, projects } from '../../db/schema.js';
import { readMembers } from './members.js';

type TGroupRow = typeof lineGroups.$inferSelect;

/** Presents `rows` (one query for projects, one for members). */
export async function presentGroups(db: Db, rows: TGroupRow[]): Promise<TLineGroup[]> {
  const ids = rows.map((g) => g.id);
  const projectRows = ids.length
    ? await db
        .select({ groupId: lineGroupProjects.groupId, id: projects.id, name: projects.name })
        .from(lineGroupProjects)
        .innerJoin(projects, eq(projects.id, lineGroupProjects.projectId))
        .where(inArray(lineGroupProjects.groupId, ids))
        .orderBy(asc(projects.name))
    : [];
  const members = await readMembers(db, ids);
  return rows.map((g) => ({
    id: g.id,
    name: g.name,
    levels: g.levels,
    projects: projectRows.filter((p) => p.groupId === g.id).map(({ id, name }) => ({ id, name })),
    members: members.filter((m) => m.groupId === g.id).map(({ kind, id, label, deliverable }) => ({ kind, id, label, deliverable })),
    created_at: g.createdAt,
    updated_at: g.updatedAt,
  }));
}

/** The tenant's group row `id`. @throws AppError 404 when missing or another tenant's. */
export async function ownedGroup(db: Db, tenantId: number, id: number): Promise<TGroupRow> {
  const [row] = await db
    .select()
    .from(lineGroups)
    .where(and(eq(lineGroups.id, id), eq(lineGroups.tenantId, tenantId)));
  if (!row) throw notFound('group');
  return row;
}

/** GET message-flow: the tenant's groups by name. */
export async function listGroups(db: Db, tenantId: number): Promise<{ data: TLineGroup[] }> {
  const rows = await db.select().from(lineGroups).where(eq(lineGroups.tenantId, tenantId)).orderBy(asc(lineGroups.name));
  return { data: await presentGroups(db, rows) };
}

/** GET message-flow/{id}. @throws AppError 404 as {@link ownedGroup}. */
export async function getGroup(db: Db, tenantId: number, id: number): Promise<TLineGroup> {
  const [group] = await presentGroups(db, [await ownedGroup(db, tenantId, id)]);
  return group;
}
