/**
 * Reading a model's revisions (spec §7 `/frontstage-ai/v1` ai-models "with revisions": `GET ai-models/{id}/revisions`;
 * docs/decisions/ai.md), newest first, each with its uploader and whether it is deployed.
 */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { TAiModelRevision, TListQuery, TPage } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { accounts, aiModelRevisions } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { ownedModel } from './model-queries.js';
import { presentRevision } from './presenters.js';

/** A revision row. */
export type TRevisionRow = typeof aiModelRevisions.$inferSelect;

/**
 * True while a device holds the revision: one of its deployments is not superseded (docs/decisions/ai.md "Deployed
 * revisions").
 */
export const isDeployed = sql<boolean>`exists (select 1 from ai_model_deployments d where d.revision_id = ${aiModelRevisions.id} and d.state <> 'superseded')`;

/** The views of the revisions matching `where`, newest first. */
function selectViews(db: TDbOrTx, where: SQL | undefined) {
  return db
    .select({ revision: aiModelRevisions, uploaderEmail: accounts.email, deployed: isDeployed })
    .from(aiModelRevisions)
    .leftJoin(accounts, eq(accounts.id, aiModelRevisions.uploadedBy))
    .where(where)
    .orderBy(desc(aiModelRevisions.revision));
}

/**
 * Revision number `rev` of the tenant's model `modelId`.
 * @throws AppError 404 when the model is not the tenant's or has no such revision.
 */
export async function ownedRevision(db: TDbOrTx, tenantId: number, modelId: number, rev: number): Promise<TRevisionRow> {
  const [row] = await db
    .select()
    .from(aiModelRevisions)
    .where(and(eq(aiModelRevisions.tenantId, tenantId), eq(aiModelRevisions.modelId, modelId), eq(aiModelRevisions.revision, rev)));
  if (!row) throw notFound('AI model revision');
  return row;
}

/** The presented revision with id `id`. */
export async function getRevision(db: TDbOrTx, id: number): Promise<TAiModelRevision> {
  const [view] = await selectViews(db, eq(aiModelRevisions.id, id));
  if (!view) throw notFound('AI model revision');
  return presentRevision(view);
}

/**
 * GET ai-models/{id}/revisions: a page of the model's revisions, newest first; `q` matches the file name or notes.
 * @throws AppError 404 when the model is not the tenant's.
 */
export async function listRevisions(db: Db, tenantId: number, modelId: number, query: TListQuery): Promise<TPage<TAiModelRevision>> {
  await ownedModel(db, tenantId, modelId);
  const where = and(
    eq(aiModelRevisions.tenantId, tenantId),
    eq(aiModelRevisions.modelId, modelId),
    searchAny(query.q, [aiModelRevisions.fileName, aiModelRevisions.notes]),
  );
  return pageOf(
    query,
    db.select({ total: count() }).from(aiModelRevisions).where(where),
    (limit, offset) => selectViews(db, where).limit(limit).offset(offset),
    presentRevision,
  );
}
