/**
 * Product functions (spec §7 `GET/PUT projects/profile/product/functions/{id}`, `{id}` = product id): which platform
 * capabilities the product's devices use (ZProductFunctions; docs/decisions/catalogue.md). Tenant-scoped: another
 * tenant's product answers 404.
 */
import { and, eq } from 'drizzle-orm';
import { DEFAULT_PRODUCT_FUNCTIONS, type TProductFunctions, type TProductFunctionsView } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { products } from '../../db/schema.js';

const present = (id: number, functions: TProductFunctions | null): TProductFunctionsView => ({
  product_id: id,
  functions: { ...DEFAULT_PRODUCT_FUNCTIONS, ...functions },
});

/** The functions of product `id` (defaults until first set). @throws AppError 404 when it is not the tenant's. */
export async function getProductFunctions(db: Db, tenantId: number, id: number): Promise<TProductFunctionsView> {
  const [row] = await db
    .select({ functions: products.functions })
    .from(products)
    .where(and(eq(products.id, id), eq(products.tenantId, tenantId)));
  if (!row) throw notFound('product');
  return present(id, row.functions);
}

/** Replaces the functions of product `id`. @throws AppError 404 when it is not the tenant's. */
export async function setProductFunctions(
  db: Db,
  tenantId: number,
  id: number,
  functions: TProductFunctions,
): Promise<TProductFunctionsView> {
  const [row] = await db
    .update(products)
    .set({ functions })
    .where(and(eq(products.id, id), eq(products.tenantId, tenantId)))
    .returning({ functions: products.functions });
  if (!row) throw notFound('product');
  return present(id, row.functions);
}
