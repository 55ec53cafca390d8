/** Product classes of a tenant (spec §7 products/classes). Names are unique per tenant; a class in use is kept. */
import { and, asc, count, eq } from 'drizzle-orm';
import type { TProductClass, TProductClassInput } from '@tessera/contracts';
import { ErrorCode } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../core/errors.js';
import { productClasses, products } from '../../db/schema.js';
import { presentProductClass } from './presenters.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';

/** Every class of the tenant by name, with how many products use it. */
export async function listProductClasses(db: Db, tenantId: number): Promise<TProductClass[]> {
  const rows = await db
    .select({ cls: productClasses, n: count(products.id) })
    .from(productClasses)
    .leftJoin(products, eq(products.classId, productClasses.id))
    .where(eq(productClasses.tenantId, tenantId))
    .groupBy(productClasses.id)
    .orderBy(asc(productClasses.name));
  return rows.map((r) => presentProductClass(r.cls, r.n));
}

/** Creates a class. @throws AppError 409 CONFLICT when the tenant already has a class of that name. */
export async function createProductClass(db: Db, tenantId: number, input: TProductClassInput): Promise<TProductClass> {
  try {
    const [row] = await db.insert(productClasses).values({ tenantId, name: input.name }).returning();
    return presentProductClass(row, 0);
  } catch (err) {
    throw isUniqueViolation(err) ? duplicateName(input.name) : err;
  }
}

/** Renames a class. @throws AppError 404 when not the tenant's; 409 CONFLICT on a duplicate name. */
export async function updateProductClass(db: Db, tenantId: number, id: number, input: TProductClassInput): Promise<TProductClass> {
  let row: typeof productClasses.$inferSelect | undefined;
  try {
    [row] = await db
      .update(productClasses)
      .set({ name: input.name })
      .where(and(eq(productClasses.id, id), eq(productClasses.tenantId, tenantId)))
      .returning();
  } catch (err) {
    throw isUniqueViolation(err) ? duplicateName(input.name) : err;
  }
  if (!row) throw notFound('product class');
  const [{ n }] = await db.select({ n: count() }).from(products).where(eq(products.classId, id));
  return presentProductClass(row, n);
}

/** Deletes a class. @throws AppError 404 when not the tenant's; 409 IN_USE while a product uses it. */
export async function deleteProductClass(db: Db, tenantId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: productClasses.id })
      .from(productClasses)
      .where(and(eq(productClasses.id, id), eq(productClasses.tenantId, tenantId)))
      .for('update');
    if (!row) throw notFound('product class');
    const [{ n }] = await tx.select({ n: count() }).from(products).where(eq(products.classId, id));
    if (n > 0) throw conflict(`the class is used by ${n} product(s)`, ErrorCode.InUse);
    await tx.delete(productClasses).where(eq(productClasses.id, id));
  });
}

const duplicateName = (name: string) => conflict(`a product class named "${name}" already exists`);
