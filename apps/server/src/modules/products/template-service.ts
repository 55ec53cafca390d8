/** The hardware-module catalogue as read by the console (spec §7 template tangramProducts; §9 page size 25). */
import { asc, count, eq, inArray } from 'drizzle-orm';
import { TANGRAM_PRODUCTS_PAGE_SIZE, type TTangramProductList, type TTemplateSensor } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { notFound } from '../../core/errors.js';
import { tangramProducts, templateSensors } from '../../db/schema.js';
import { presentTangramProduct, presentTemplateSensor } from './presenters.js';
import { pageOf } from '../../db/paging.js';
import { searchAny } from '../../db/sql-helpers.js';

/** Page `page` (25 per page) of the modules by model number, each with its sensors; `q` matches name or model number. */
export async function listTangramProducts(db: Db, query: { page: number; q?: string }): Promise<TTangramProductList> {
  const limit = TANGRAM_PRODUCTS_PAGE_SIZE;
  const where = searchAny(query.q, [tangramProducts.name, tangramProducts.modelNumber]);
  const page = await pageOf(
    { page: query.page, limit },
    db.select({ total: count() }).from(tangramProducts).where(where),
    (n, offset) => db.select().from(tangramProducts).where(where).orderBy(asc(tangramProducts.modelNumber)).limit(n).offset(offset),
    (row) => row,
  );
  const rows = page.data;
  const sensors = rows.length
    ? await db
        .select()
        .from(templateSensors)
        .where(
          inArray(
            templateSensors.tangramProductId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(templateSensors.id))
    : [];
  return {
    data: rows.map((r) =>
      presentTangramProduct(
        r,
        sensors.filter((s) => s.tangramProductId === r.id),
      ),
    ),
    page: page.page,
    limit,
    total_items: page.total_items,
    total_pages: Math.ceil(page.total_items / limit),
  };
}

/** The template sensors of module `id`. @throws AppError 404 when there is no such module. */
export async function listTemplateSensors(db: Db, id: number): Promise<TTemplateSensor[]> {
  const [module] = await db.select({ id: tangramProducts.id }).from(tangramProducts).where(eq(tangramProducts.id, id));
  if (!module) throw notFound('hardware module');
  const rows = await db.select().from(templateSensors).where(eq(templateSensors.tangramProductId, id)).orderBy(asc(templateSensors.id));
  return rows.map(presentTemplateSensor);
}
