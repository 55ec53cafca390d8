/**
 * Reading a tenant's AI models (spec §7 `/frontstage-ai/v1` ai-models: `GET ai-models`, `GET ai-models/{id}`;
 * docs/decisions/ai.md), each with its hardware module and its revisions' count and newest number.
 */
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { TAiModel, TAiModelListQuery, TPage } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { aiModels, tangramProducts } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { presentModel } from './presenters.js';

/** A model row. */
export type TModelRow = typeof aiModels.$inferSelect;

/**
 * The tenant's model `id`; `lock` `update` while it is changed or deleted (an upload's revision number is taken under
 * the same row lock).
 * @throws AppError 404 when it is missing or another tenant's.
 */
export async function ownedModel(db: TDbOrTx, tenantId: number, id: number, lock?: 'update'): Promise<TModelRow> {
  const query = db
    .select()
    .from(aiModels)
    .where(and(eq(aiModels.id, id), eq(aiModels.tenantId, tenantId)));
  const [row] = lock ? await query.for(lock) : await query;
  if (!row) throw notFound('AI model');
  return row;
}

/** The columns of a {@link TModelView}: the model, its module, and its revisions counted. */
const viewColumns = {
  model: aiModels,
  moduleName: tangramProducts.name,
  moduleModelNumber: tangramProducts.modelNumber,
  revisionCount: sql<number>`(select count(*)::int from ai_model_revisions r where r.model_id = ${aiModels.id})`,
  latestRevision: sql<number | null>`(select max(r.revision) from ai_model_revisions r where r.model_id = ${aiModels.id})`,
};

/** The views of the models matching `where`, by name ignoring case (then id). */
function selectViews(db: TDbOrTx, where: SQL | undefined) {
  return db
    .select(viewColumns)
    .from(aiModels)
    .innerJoin(tangramProducts, eq(tangramProducts.id, aiModels.tangramProductId))
    .where(where)
    .orderBy(asc(sql`lower(${aiModels.name})`), asc(aiModels.id));
}

/** GET ai-models/{id}. @throws AppError 404 when it is missing or another tenant's. */
export async function getAiModel(db: TDbOrTx, tenantId: number, id: number): Promise<TAiModel> {
  const [view] = await selectViews(db, and(eq(aiModels.id, id), eq(aiModels.tenantId, tenantId)));
  if (!view) throw notFound('AI model');
  return presentModel(view);
}

/** GET ai-models: a page of the tenant's models by name; `q` matches the name or description, `framework` filters. */
export async function listAiModels(db: Db, tenantId: number, query: TAiModelListQuery): Promise<TPage<TAiModel>> {
  const where = and(
    eq(aiModels.tenantId, tenantId),
    searchAny(query.q, [aiModels.name, aiModels.description]),
    query.framework ? eq(aiModels.framework, query.framework) : undefined,
  );
  return pageOf(
    query,
    db.select({ total: count() }).from(aiModels).where(where),
    (limit, offset) => selectViews(db, where).limit(limit).offset(offset),
    presentModel,
  );
}
