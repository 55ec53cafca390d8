/**
 * Uploading a revision (spec §7 `/frontstage-ai/v1` ai-models "with revisions": `POST ai-models/{id}/revisions`;
 * docs/decisions/ai.md "Uploads"): the file streams into the blob store through a SHA-256 digest — never held whole
 * in memory — and only once it is complete does the revision get its number and its row, in one short transaction.
 * Anything that fails before (the file over MAX_MODEL_BYTES, the client gone, the store failing) leaves nothing:
 * the partial blob is dropped.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import { AiModelErrorCode, MAX_MODEL_BYTES, type TAiModelRevision } from '@tessera/contracts';
import type { Logger } from 'pino';
import type { TBlobStore } from '../../core/blob-store.js';
import { AppError } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { aiModelRevisions, aiModels } from '../../db/schema.js';
import { ownedModel } from './model-queries.js';
import { getRevision } from './revision-queries.js';

/** A revision's file as the route read it from the request. */
export interface TRevisionUpload {
  /** The file's bytes; it fails with the request (413 past the limit, or the client's disconnect). */
  file: Readable;
  /** The name it was uploaded under, already cleaned (file-name.ts). */
  fileName: string;
  notes: string;
}

/** 413 AI_MODEL_TOO_LARGE: a file over {@link MAX_MODEL_BYTES}. */
export const modelTooLarge = () =>
  new AppError(413, AiModelErrorCode.TooLarge, `the file is larger than ${MAX_MODEL_BYTES} bytes (${MAX_MODEL_BYTES / 1024 / 1024} MB)`);

/** A pass-through that digests (SHA-256) and counts what it passes, failing with 413 past `maxBytes`. */
function digestingCounter(maxBytes: number) {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes) return callback(modelTooLarge());
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  return { stream, sha256: () => hash.digest('hex'), bytes: () => bytes };
}

/**
 * POST ai-models/{id}/revisions: stores `upload` as the model's next revision, uploaded by `principal`.
 * @throws AppError 404 when the model is not the tenant's (checked before a byte is stored, and again when the
 *   revision is recorded); 413 AI_MODEL_TOO_LARGE past MAX_MODEL_BYTES; the request's error when the client goes away.
 */
export async function uploadRevision(
  deps: { db: Db; blobs: TBlobStore; log: Logger },
  principal: TPrincipal,
  modelId: number,
  upload: TRevisionUpload,
): Promise<TAiModelRevision> {
  const { db, blobs } = deps;
  const { tenantId } = principal;
  await ownedModel(db, tenantId, modelId);
  const blobKey = `ai-models/${tenantId}/${modelId}/${randomUUID()}.bin`;
  const digest = digestingCounter(MAX_MODEL_BYTES);
  const writer = await blobs.writer(blobKey);
  let sizeBytes: number;
  try {
    await pipeline(upload.file, digest.stream, writer.stream);
    sizeBytes = await writer.commit();
  } catch (err) {
    await writer.abort();
    throw err;
  }
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      // The row lock makes concurrent uploads of one model take numbers one after the other.
      const model = await ownedModel(tx, tenantId, modelId, 'update');
      await tx
        .update(aiModels)
        .set({ nextRevision: model.nextRevision + 1, updatedAt: Date.now() })
        .where(eq(aiModels.id, modelId));
      const [row] = await tx
        .insert(aiModelRevisions)
        .values({
          tenantId,
          modelId,
          revision: model.nextRevision,
          blobKey,
          sha256: digest.sha256(),
          sizeBytes,
          fileName: upload.fileName,
          notes: upload.notes,
          uploadedBy: principal.accountId,
        })
        .returning({ id: aiModelRevisions.id });
      return row.id;
    });
  } catch (err) {
    await blobs
      .remove(blobKey)
      .catch((e: Error) => deps.log.warn({ err: e.message, key: blobKey }, 'ai-models: an unrecorded upload kept its file'));
    throw err;
  }
  return getRevision(db, id);
}
