/**
 * The product profile of a project (spec §7 `GET projects/profile/product/{id}`, `{id}` = project id;
 * docs/decisions/catalogue.md "Product profile of a project"): the product the project is built on (with its
 * class), the hardware module (Tangram product) and the product's functions — what a project page shows of "what
 * this project is".
 */
import { and, eq } from 'drizzle-orm';
import { DEFAULT_PRODUCT_FUNCTIONS, type TProjectProductProfile } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { productClasses, products, projects, tangramProducts } from '../../db/schema.js';
import { presentProduct } from './presenters.js';

/**
 * The product profile of the tenant's project `projectId`.
 * @throws AppError 404 when the project is missing or another tenant's.
 */
export async function projectProductProfile(db: Db, tenantId: number, projectId: number): Promise<TProjectProductProfile> {
  const [row] = await db
    .select({ product: products, className: productClasses.name, module: tangramProducts })
    .from(projects)
    .innerJoin(products, eq(products.id, projects.productId))
    .innerJoin(tangramProducts, eq(tangramProducts.id, projects.tangramProductId))
    .leftJoin(productClasses, eq(productClasses.id, products.classId))
    .where(and(eq(projects.id, projectId), eq(projects.tenantId, tenantId)));
  if (!row) throw notFound('project');
  return {
    project_id: projectId,
    product: presentProduct(row.product, row.className),
    tangram_product: { id: row.module.id, name: row.module.name, model_number: row.module.modelNumber },
    functions: { ...DEFAULT_PRODUCT_FUNCTIONS, ...row.product.functions },
  };
}
