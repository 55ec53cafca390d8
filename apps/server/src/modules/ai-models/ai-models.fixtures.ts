/**
 * Test fixtures of the AI model registry: a model made through the API, a revision upload as the multipart body a
 * browser sends, and what the blob store holds of the registry (files, or rows being written) on either store.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AI_MODEL_FILE_FIELD, AI_MODEL_NOTES_FIELD, aiModelPaths, type TAiModel, type TAiModelRevision } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import type { TTestServer } from '../../../test/helpers.js';
import { rowsOf } from '../../db/client.js';
import { moduleId } from '../projects/catalogue.fixtures.js';

let seq = 0;
/** A model name not used before in this run. */
export const uniqueModelName = (label = 'Model') => `${label} ${++seq}`;

/** Creates a model as the vendor holding `token`. */
export async function createModelVia(server: TTestServer, token: string, body: Partial<Record<string, unknown>> = {}): Promise<TAiModel> {
  const res = await server.api<TAiModel>('POST', aiModelPaths.models, {
    token,
    body: { name: uniqueModelName(), framework: 'onnx', tangram_product_id: await moduleId(server, token), ...body },
  });
  if (res.status !== 201) throw new Error(`model create answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The boundary of {@link multipartUpload} bodies. */
export const BOUNDARY = '----tessera-test-boundary';

/** The multipart head before the file's bytes: the notes field (when given), then the file part's headers. */
export function multipartHead(fileName: string, notes?: string): Buffer {
  const notesPart =
    notes === undefined ? '' : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${AI_MODEL_NOTES_FIELD}"\r\n\r\n${notes}\r\n`;
  return Buffer.from(
    `${notesPart}--${BOUNDARY}\r\nContent-Disposition: form-data; name="${AI_MODEL_FILE_FIELD}"; filename="${fileName}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
}

/** The multipart tail after the file's bytes. */
export const multipartTail = () => Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** The content type of {@link multipartHead} bodies. */
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** POST ai-models/{id}/revisions with `bytes` as file `fileName` (and `notes`), through `app.inject`. */
export function uploadVia(
  server: TTestServer,
  token: string | undefined,
  modelId: number,
  bytes: Buffer,
  opts: { fileName?: string; notes?: string } = {},
) {
  const body = Buffer.concat([multipartHead(opts.fileName ?? 'model.onnx', opts.notes), bytes, multipartTail()]);
  return server.api<TAiModelRevision & { code?: string }>('POST', aiModelPaths.revisions(modelId), {
    token,
    body,
    headers: { 'content-type': MULTIPART_TYPE },
  });
}

/** Files the registry has in the blob store, complete or being written (directory: files; database: rows). */
export async function storedModelBlobs(server: TTestServer): Promise<number> {
  const { config, db } = server.ctx;
  if (config.blobStore === 'database') {
    return rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from blobs where key like 'ai-models/%'`))[0].n;
  }
  try {
    return readdirSync(join(config.blobDir, 'ai-models'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
}
