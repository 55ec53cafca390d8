/** Allocation of a product's 4-hex model number (the product part of its devices' Tangram IDs, spec §3). */
import { eq } from 'drizzle-orm';
import { formatTangramPart, TANGRAM_PART_WIDTHS } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { conflict } from '../../core/errors.js';
import { products } from '../../db/schema.js';

const MAX_MODEL_NUMBER = 16 ** TANGRAM_PART_WIDTHS.product_model_number - 1;

/**
 * The lowest model number from 0001 not used by a product of `tenantId`, as 4 upper-case hex digits. Numbers of
 * deleted products are reused (a deleted product cannot have devices: delete is refused while a project uses it).
 * @throws AppError 409 when all 65535 numbers are taken.
 */
export async function nextModelNumber(db: Db, tenantId: number): Promise<string> {
  const rows = await db.select({ n: products.modelNumber }).from(products).where(eq(products.tenantId, tenantId));
  const used = new Set(rows.map((r) => Number.parseInt(r.n, 16)));
  for (let n = 1; n <= MAX_MODEL_NUMBER; n++) {
    if (!used.has(n)) return formatTangramPart('product_model_number', n);
  }
  throw conflict('every product model number of this tenant is taken');
}
