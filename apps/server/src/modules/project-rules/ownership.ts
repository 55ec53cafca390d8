/** Tenant scoping of the rules routes: every rule hangs off a project of the caller's tenant (§6 tenant owner). */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { notFound } from '../../core/errors.js';
import { projects } from '../../db/schema.js';

/** The project row a rule route works on. */
export type TRulesProject = Pick<typeof projects.$inferSelect, 'id' | 'statusGroups'>;

/**
 * The tenant's project `projectId`; with `lock`, its row is locked until the transaction `db` ends (serialises the
 * per-project count limits).
 * @throws AppError 404 when it does not exist or belongs to another tenant (indistinguishable on purpose).
 */
export async function ownedProject(db: Db, tenantId: number, projectId: number, lock = false): Promise<TRulesProject> {
  const query = db
    .select({ id: projects.id, statusGroups: projects.statusGroups })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.tenantId, tenantId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('project');
  return row;
}
