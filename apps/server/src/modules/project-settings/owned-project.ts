/** Tenant scoping shared by the project-settings routes. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { notFound } from '../../core/errors.js';
import { projects } from '../../db/schema.js';

/**
 * The tenant's project `id` (id and name).
 * @throws AppError 404 when it does not exist or belongs to another tenant (indistinguishable on purpose).
 */
export async function ownedProject(db: Db, tenantId: number, id: number): Promise<{ id: number; name: string }> {
  const [row] = await db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(and(eq(projects.id, id), eq(projects.tenantId, tenantId)));
  if (!row) throw notFound('project');
  return row;
}
