/** Reading a tenant's projects with their product, hardware module and device count. */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { TListQuery, TPage, TProject } from '@tessera/contracts';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import { notFound } from '../../core/errors.js';
import { devices, products, projects, tangramProducts } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';
import { presentProject, type TProjectView } from './presenters.js';

function selectViews(db: Db, where: SQL | undefined) {
  return db
    .select({
      project: projects,
      productName: products.name,
      moduleName: tangramProducts.name,
      deviceCount: sql<number>`(select count(*) from ${devices} where ${devices.projectId} = ${projects.id})::int`,
    })
    .from(projects)
    .innerJoin(products, eq(products.id, projects.productId))
    .innerJoin(tangramProducts, eq(tangramProducts.id, projects.tangramProductId))
    .where(where);
}

/** A page of the tenant's projects, newest first; `q` matches the project's or its product's name. */
export async function listProjects(db: Db, tenantId: number, query: TListQuery): Promise<TPage<TProject>> {
  const where = and(eq(projects.tenantId, tenantId), searchAny(query.q, [projects.name, products.name]));
  return pageOf(
    query,
    db.select({ total: count() }).from(projects).innerJoin(products, eq(products.id, projects.productId)).where(where),
    (limit, offset) => selectViews(db, where).orderBy(desc(projects.createdAt), desc(projects.id)).limit(limit).offset(offset),
    presentProject,
  );
}

/** How many projects the tenant has. */
export async function countProjects(db: Db, tenantId: number): Promise<number> {
  const [{ total }] = await db.select({ total: count() }).from(projects).where(eq(projects.tenantId, tenantId));
  return total;
}

/** The tenant's project `id` as a view. @throws AppError 404 when it is missing or another tenant's. */
export async function findProjectView(db: Db, tenantId: number, id: number): Promise<TProjectView> {
  const [row] = await selectViews(db, and(eq(projects.id, id), eq(projects.tenantId, tenantId)));
  if (!row) throw notFound('project');
  return row;
}

/** The tenant's project `id` presented. @throws AppError 404 when it is missing or another tenant's. */
export async function getProject(db: Db, tenantId: number, id: number): Promise<TProject> {
  return presentProject(await findProjectView(db, tenantId, id));
}
