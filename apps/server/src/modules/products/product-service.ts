/**
 * Products of a tenant (spec §7 `/frontstage/v1/products`; §5 name/model/number limits are enforced by the
 * contracts schemas). Every query is scoped by `tenantId`; another tenant's product answers 404.
 */
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { TListQuery, TPage, TProduct, TProductCatalogItem, TProductCreate, TProductUpdate } from '@tessera/contracts';
import { ErrorCode } from '@tessera/contracts';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../core/errors.js';
import { machineComponents, productClasses, products, projects } from '../../db/schema.js';
import { assertTenantImage } from '../images/read-image.js';
import { nextModelNumber } from './model-number.js';
import { presentProduct } from './presenters.js';
import { isUniqueViolation, searchAny } from '../../db/sql-helpers.js';

const MODEL_NUMBER_ATTEMPTS = 5;

/** A page of the tenant's products, newest first; `q` searches name, model, number and model number. */
export async function listProducts(db: Db, tenantId: number, query: TListQuery): Promise<TPage<TProduct>> {
  const where = and(
    eq(products.tenantId, tenantId),
    searchAny(query.q, [products.name, products.model, products.number, products.modelNumber]),
  );
  return pageOf(
    query,
    db.select({ total: count() }).from(products).where(where),
    (limit, offset) =>
      db
        .select({ product: products, className: productClasses.name })
        .from(products)
        .leftJoin(productClasses, eq(productClasses.id, products.classId))
        .where(where)
        .orderBy(desc(products.createdAt), desc(products.id))
        .limit(limit)
        .offset(offset),
    (r) => presentProduct(r.product, r.className),
  );
}

/** How many products the tenant has. */
export async function countProducts(db: Db, tenantId: number): Promise<number> {
  const [{ total }] = await db.select({ total: count() }).from(products).where(eq(products.tenantId, tenantId));
  return total;
}

/** Every product of the tenant as `{ id, name, model_number }`, by name (for selects). */
export async function productCatalog(db: Db, tenantId: number): Promise<TProductCatalogItem[]> {
  return db
    .select({ id: products.id, name: products.name, model_number: products.modelNumber })
    .from(products)
    .where(eq(products.tenantId, tenantId))
    .orderBy(asc(products.name), asc(products.id));
}

/**
 * Creates a product with the next free model number of the tenant (retried when a concurrent create took it).
 * @throws AppError 404 when `class_id` is not a class of the tenant or `image_url` not an image it uploaded.
 */
export async function createProduct(db: Db, tenantId: number, input: TProductCreate): Promise<TProduct> {
  const className = await classNameOf(db, tenantId, input.class_id);
  await assertTenantImage(db, tenantId, input.image_url);
  for (let attempt = 1; ; attempt++) {
    try {
      const [row] = await db
        .insert(products)
        .values({
          tenantId,
          name: input.name,
          model: input.model,
          number: input.number,
          modelNumber: await nextModelNumber(db, tenantId),
          classId: input.class_id ?? null,
          description: input.description ?? '',
          imageUrl: input.image_url ?? null,
        })
        .returning();
      return presentProduct(row, className);
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= MODEL_NUMBER_ATTEMPTS) throw err;
    }
  }
}

/**
 * Updates the given fields; the model number never changes (devices carry it in their Tangram IDs).
 * @throws AppError 404 when the product, `class_id` or `image_url` is not the tenant's.
 */
export async function updateProduct(db: Db, tenantId: number, id: number, input: TProductUpdate): Promise<TProduct> {
  if (input.class_id !== undefined) await classNameOf(db, tenantId, input.class_id);
  await assertTenantImage(db, tenantId, input.image_url);
  const set = {
    name: input.name,
    model: input.model,
    number: input.number,
    classId: input.class_id,
    description: input.description,
    imageUrl: input.image_url,
  };
  const hasChanges = Object.values(set).some((v) => v !== undefined);
  const where = and(eq(products.id, id), eq(products.tenantId, tenantId));
  const [row] = hasChanges ? await db.update(products).set(set).where(where).returning() : await db.select().from(products).where(where);
  if (!row) throw notFound('product');
  return presentProduct(row, await classNameOf(db, tenantId, row.classId));
}

/**
 * Deletes a product.
 * @throws AppError 404 when it is not the tenant's; 409 IN_USE while a project or a machine component uses it.
 */
export async function deleteProduct(db: Db, tenantId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.id, id), eq(products.tenantId, tenantId)))
      .for('update');
    if (!row) throw notFound('product');
    const [{ n }] = await tx.select({ n: count() }).from(projects).where(eq(projects.productId, id));
    if (n > 0) throw conflict(`the product is used by ${n} project(s)`, ErrorCode.InUse);
    const [{ parts }] = await tx.select({ parts: count() }).from(machineComponents).where(eq(machineComponents.productId, id));
    if (parts > 0) throw conflict(`the product is used by ${parts} machine component(s)`, ErrorCode.InUse);
    await tx.delete(products).where(eq(products.id, id));
  });
}

/** The name of the tenant's class `classId` (null for none). @throws AppError 404 when it is not the tenant's. */
async function classNameOf(db: Db, tenantId: number, classId: number | null | undefined): Promise<string | null> {
  if (classId === null || classId === undefined) return null;
  const [row] = await db
    .select({ name: productClasses.name })
    .from(productClasses)
    .where(and(eq(productClasses.id, classId), eq(productClasses.tenantId, tenantId)));
  if (!row) throw notFound('product class');
  return row.name;
}
