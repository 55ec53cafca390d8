/**
 * Downloading a revision's file (spec §7 `/frontstage-ai/v1` ai-models "download"; docs/decisions/ai.md "Downloads"):
 * streamed from the blob store, whole or one byte range (a broken download resumes), the ETag its SHA-256. The file
 * opens with the bearer header, or with a link token (`POST …/link`, valid AI_MODEL_LINK_TTL_S seconds) so that the
 * browser saves a large file straight to disk.
 */
import { Readable } from 'node:stream';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { AI_MODEL_LINK_TTL_S, AiModelErrorCode, aiModelPaths, type TAiModelLink, type TErrorBody } from '@tessera/contracts';
import type { TBlobStore } from '../../core/blob-store.js';
import { AppError, unauthorized } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { purposeKey } from '../../core/purpose-key.js';
import type { Db } from '../../db/client.js';
import { chooseByteRange } from './byte-range.js';
import { ownedRevision, type TRevisionRow } from './revision-queries.js';

const LINK_AUDIENCE = 'tessera:ai-model';
const linkKey = (db: Db) => purposeKey(db, 'ai_model_link_secret');
const ZLinkClaims = z.object({ tid: z.number().int(), mid: z.number().int(), rev: z.number().int() });

/**
 * POST ai-models/{id}/revisions/{rev}/link: a URL of the file carrying a token of this revision only, valid
 * AI_MODEL_LINK_TTL_S seconds.
 * @throws AppError 404 when the model is not the tenant's or has no such revision.
 */
export async function revisionLink(db: Db, principal: TPrincipal, modelId: number, rev: number): Promise<TAiModelLink> {
  await ownedRevision(db, principal.tenantId, modelId, rev);
  const exp = Math.floor(Date.now() / 1000) + AI_MODEL_LINK_TTL_S;
  const token = await new SignJWT({ tid: principal.tenantId, mid: modelId, rev })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(principal.accountId))
    .setAudience(LINK_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(await linkKey(db));
  return { url: `${aiModelPaths.download(modelId, rev)}?token=${encodeURIComponent(token)}`, expires_at: exp * 1000 };
}

/** The tenant a link token of revision `rev` of model `modelId` speaks for. @throws AppError 401 LINK_EXPIRED / LINK_INVALID. */
async function tenantOfLink(db: Db, token: string, modelId: number, rev: number): Promise<number> {
  try {
    const { payload } = await jwtVerify(token, await linkKey(db), { audience: LINK_AUDIENCE, algorithms: ['HS256'] });
    const claims = ZLinkClaims.parse(payload);
    if (claims.mid !== modelId || claims.rev !== rev) throw new Error('another revision');
    return claims.tid;
  } catch (err) {
    if (err instanceof errors.JWTExpired)
      throw unauthorized('this download link has expired; open it again from the model page', 'LINK_EXPIRED');
    throw unauthorized('this download link is not valid', 'LINK_INVALID');
  }
}

/**
 * The revision GET …/download names: of the caller's tenant, or of the tenant a link token of exactly this revision
 * speaks for.
 * @throws AppError 401 without a login or with a bad link token; 404 when the model or revision is not that tenant's.
 */
export async function revisionToDownload(
  db: Db,
  modelId: number,
  rev: number,
  by: { principal: TPrincipal | null; token?: string },
): Promise<TRevisionRow> {
  let tenantId: number;
  if (by.token !== undefined) tenantId = await tenantOfLink(db, by.token, modelId, rev);
  else if (by.principal) tenantId = by.principal.tenantId;
  else throw unauthorized();
  return ownedRevision(db, tenantId, modelId, rev);
}

/** What GET …/download answers: a status, headers, and the bytes (200, 206) or an error body (416). */
export type TRevisionFileAnswer =
  | { status: 200 | 206; headers: Record<string, string>; stream: Readable }
  | { status: 416; headers: Record<string, string>; body: TErrorBody };

/**
 * The answer to a download of `revision` with the request's `Range` and `If-Range` headers: 200 with the whole file,
 * 206 with one range (`Content-Range`), or 416 (`Content-Range: bytes *\/size`). Every answer says `Accept-Ranges:
 * bytes` and the ETag (the SHA-256 in quotes).
 * @throws AppError 410 AI_MODEL_FILE_GONE when the blob store no longer has the file.
 */
export async function answerRevisionFile(
  blobs: TBlobStore,
  revision: TRevisionRow,
  headers: { range?: string; ifRange?: string },
): Promise<TRevisionFileAnswer> {
  const etag = `"${revision.sha256}"`;
  const size = revision.sizeBytes;
  const common = { 'accept-ranges': 'bytes', etag, 'cache-control': 'private, no-store' };
  const choice = chooseByteRange(headers.range, size, etag, headers.ifRange);
  if (choice.kind === 'unsatisfiable') {
    return {
      status: 416,
      headers: { ...common, 'content-range': `bytes */${size}` },
      body: { code: AiModelErrorCode.RangeNotSatisfiable, message: `the range is not inside the file of ${size} bytes` },
    };
  }
  const range = choice.kind === 'part' ? { start: choice.start, end: choice.end } : undefined;
  const file = await blobs.read(revision.blobKey, range).catch(() => {
    throw new AppError(410, AiModelErrorCode.FileGone, 'the file of this revision is gone; upload it again');
  });
  const fileHeaders = {
    ...common,
    'content-type': 'application/octet-stream',
    'content-disposition': contentDisposition(revision.fileName),
    'x-content-type-options': 'nosniff',
  };
  if (!range) return { status: 200, headers: { ...fileHeaders, 'content-length': String(size) }, stream: file.stream };
  return {
    status: 206,
    headers: {
      ...fileHeaders,
      'content-length': String(range.end - range.start + 1),
      'content-range': `bytes ${range.start}-${range.end}/${size}`,
    },
    stream: file.stream,
  };
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Answers a GET or HEAD of `revision`'s file on `reply` with the request's `Range` and `If-Range` (see
 * {@link answerRevisionFile}); HEAD gets the headers only.
 * @throws AppError 410 AI_MODEL_FILE_GONE when the blob store no longer has the file.
 */
export async function sendRevisionFile(
  blobs: TBlobStore,
  revision: TRevisionRow,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const answer = await answerRevisionFile(blobs, revision, { range: header(req.headers.range), ifRange: header(req.headers['if-range']) });
  reply.status(answer.status).headers(answer.headers);
  if (answer.status === 416) return reply.send(answer.body);
  // HEAD (a download manager sizing the file): the headers only. Fastify's HEAD route would read a stream to its end
  // and set Content-Length 0 for no body, so it gets an empty stream and the file is never read.
  if (req.method === 'HEAD') {
    answer.stream.destroy();
    return reply.send(Readable.from([]));
  }
  return reply.send(answer.stream);
}
