/**
 * Deleting AI models and revisions (spec §7 `/frontstage-ai/v1` ai-models CRUD: `DELETE ai-models/{id}`,
 * `DELETE ai-models/{id}/revisions/{rev}`; docs/decisions/ai.md). A deployed revision, and a model with one, stay:
 * 409 AI_MODEL_DEPLOYED (checked first; the restricting foreign key of `ai_model_deployments` holds against a race).
 * Rows go first, in one transaction; the files after the commit, so a failed removal leaves an unreferenced file
 * (logged), never a revision without its file.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { AiModelErrorCode } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TBlobStore } from '../../core/blob-store.js';
import { conflict } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { aiModelRevisions, aiModelRollouts, aiModels } from '../../db/schema.js';
import { ownedModel } from './model-queries.js';
import { isDeployed, ownedRevision } from './revision-queries.js';

/** What deleting needs: the database, the blob store and a logger for files that could not be removed. */
export interface TDeleteDeps {
  db: Db;
  blobs: TBlobStore;
  log: Logger;
}

const deployedConflict = (what: string) => conflict(`${what} is deployed to devices; remove it from them first`, AiModelErrorCode.Deployed);

/** True when `err` is PostgreSQL's foreign_key_violation (23503) on either driver, through Drizzle's wrapping. */
function isForeignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23503') return true;
  }
  return false;
}

/** Runs `work`, answering 409 AI_MODEL_DEPLOYED when a deployment (made meanwhile) still names a revision it deletes. */
async function unlessDeployed<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw deployedConflict(what);
    throw err;
  }
}

/** Removes the files `keys` after their rows are gone; a failure is logged, not thrown (the rows are already deleted). */
async function removeFiles(deps: TDeleteDeps, keys: string[]): Promise<void> {
  for (const key of keys) {
    await deps.blobs
      .remove(key)
      .catch((err: Error) => deps.log.warn({ err: err.message, key }, 'ai-models: a deleted revision kept its file'));
  }
}

/**
 * DELETE ai-models/{id}: the model, its revisions and their files.
 * @throws AppError 404 when it is not the tenant's; 409 AI_MODEL_DEPLOYED when one of its revisions is deployed.
 */
export async function deleteAiModel(deps: TDeleteDeps, tenantId: number, id: number): Promise<void> {
  const keys = await unlessDeployed('a revision of this model', () =>
    deps.db.transaction(async (tx) => {
      await ownedModel(tx, tenantId, id, 'update');
      const [deployed] = await tx
        .select({ id: aiModelRevisions.id })
        .from(aiModelRevisions)
        .where(and(eq(aiModelRevisions.modelId, id), isDeployed))
        .limit(1);
      if (deployed) throw deployedConflict('a revision of this model');
      // Rollouts that no device holds any more are history of the revisions going now.
      await tx
        .delete(aiModelRollouts)
        .where(
          inArray(
            aiModelRollouts.revisionId,
            tx.select({ id: aiModelRevisions.id }).from(aiModelRevisions).where(eq(aiModelRevisions.modelId, id)),
          ),
        );
      const revisions = await tx
        .delete(aiModelRevisions)
        .where(eq(aiModelRevisions.modelId, id))
        .returning({ blobKey: aiModelRevisions.blobKey });
      await tx.delete(aiModels).where(eq(aiModels.id, id));
      return revisions.map((r) => r.blobKey);
    }),
  );
  await removeFiles(deps, keys);
}

/**
 * DELETE ai-models/{id}/revisions/{rev}: the revision and its file; its number is not given again.
 * @throws AppError 404 when the model is not the tenant's or has no such revision; 409 AI_MODEL_DEPLOYED when it is
 *   deployed.
 */
export async function deleteRevision(deps: TDeleteDeps, tenantId: number, modelId: number, rev: number): Promise<void> {
  const key = await unlessDeployed('this revision', () =>
    deps.db.transaction(async (tx) => {
      await ownedModel(tx, tenantId, modelId, 'update');
      const revision = await ownedRevision(tx, tenantId, modelId, rev);
      const [deployed] = await tx
        .select({ id: aiModelRevisions.id })
        .from(aiModelRevisions)
        .where(and(eq(aiModelRevisions.id, revision.id), isDeployed));
      if (deployed) throw deployedConflict('this revision');
      await tx.delete(aiModelRollouts).where(eq(aiModelRollouts.revisionId, revision.id));
      await tx.delete(aiModelRevisions).where(eq(aiModelRevisions.id, revision.id));
      await tx.update(aiModels).set({ updatedAt: Date.now() }).where(eq(aiModels.id, modelId));
      return revision.blobKey;
    }),
  );
  await removeFiles(deps, [key]);
}
