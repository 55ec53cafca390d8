/**
 * Creating and changing AI models (spec §7 `/frontstage-ai/v1` ai-models: `POST ai-models`, `PUT ai-models/{id}`;
 * docs/decisions/ai.md): the hardware module must be one of the catalogue's; names are unique in the tenant ignoring
 * case (the unique index settles races).
 */
import { and, eq } from 'drizzle-orm';
import { ErrorCode, type TAiModel, type TAiModelValues } from '@tessera/contracts';
import { AppError, conflict } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { aiModels, tangramProducts } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { getAiModel, ownedModel } from './model-queries.js';

/** @throws AppError 404 naming `tangram_product_id` when the catalogue has no such module. */
async function assertModule(db: TDbOrTx, id: number): Promise<void> {
  const [module] = await db.select({ id: tangramProducts.id }).from(tangramProducts).where(eq(tangramProducts.id, id));
  if (!module) {
    throw new AppError(404, ErrorCode.NotFound, 'hardware module not found', [
      { path: 'body/tangram_product_id', message: 'hardware module not found' },
    ]);
  }
}

/** Runs `work`, answering 409 CONFLICT when another model of the tenant has `name` (ignoring case). */
async function withUniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`an AI model named "${name}" already exists`);
    throw err;
  }
}

/** The columns a model's input sets. */
const columnsOf = (input: TAiModelValues) => ({
  name: input.name,
  description: input.description,
  framework: input.framework,
  tangramProductId: input.tangram_product_id,
  inputDescription: input.input_description,
  outputDescription: input.output_description,
});

/**
 * POST ai-models: a model of tenant `tenantId`, without revisions.
 * @throws AppError 404 for a module not in the catalogue; 409 CONFLICT when the name is taken.
 */
export async function createAiModel(db: Db, tenantId: number, input: TAiModelValues): Promise<TAiModel> {
  await assertModule(db, input.tangram_product_id);
  const [row] = await withUniqueName(input.name, () =>
    db
      .insert(aiModels)
      .values({ tenantId, ...columnsOf(input) })
      .returning({ id: aiModels.id }),
  );
  return getAiModel(db, tenantId, row.id);
}

/**
 * PUT ai-models/{id}: replaces the model's fields (its revisions stay).
 * @throws AppError 404 when the model is not the tenant's or the module not in the catalogue; 409 CONFLICT when
 *   another model has the name.
 */
export async function updateAiModel(db: Db, tenantId: number, id: number, input: TAiModelValues): Promise<TAiModel> {
  await ownedModel(db, tenantId, id);
  await assertModule(db, input.tangram_product_id);
  await withUniqueName(input.name, () =>
    db
      .update(aiModels)
      .set({ ...columnsOf(input), updatedAt: Date.now() })
      .where(and(eq(aiModels.id, id), eq(aiModels.tenantId, tenantId))),
  );
  return getAiModel(db, tenantId, id);
}
