/**
 * Download jobs as their owner sees them (spec §7 `/frontstage-dc/v1` timeseries-records; docs/downloads.md): a job
 * belongs to the account that made it, inside its tenant — another account, even of the same tenant, sees a 404.
 * Making one checks every device like the CSV download of the history chart does (visible, `download_data`).
 */
import { and, count, desc, eq } from 'drizzle-orm';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import {
  DAY_MS,
  DOWNLOAD_LINK_TTL_S,
  DOWNLOAD_RETENTION_DAYS,
  downloadPaths,
  type TDownloadJob,
  type TDownloadJobPage,
  type TDownloadJobSpec,
  type TDownloadLink,
  type TListQuery,
} from '@tessera/contracts';
import type { TBlobStore } from '../../core/blob-store.js';
import { AppError, conflict, notFound, unauthorized } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import { purposeKey } from '../../core/purpose-key.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { searchAny } from '../../db/sql-helpers.js';
import { downloadJobs } from '../../db/schema.js';
import { deviceFor } from '../devices/access.js';

/** At most this many of one account's jobs may be packaging at once. */
export const DOWNLOAD_MAX_PACKAGING = 5;

type TJobRow = typeof downloadJobs.$inferSelect;

const LINK_AUDIENCE = 'tessera:download';
const linkKey = (db: Db) => purposeKey(db, 'download_link_secret');
const ZLinkClaims = z.object({ sub: z.string().regex(/^\d+$/), jid: z.number().int() });

/** A job row as the API answers it. */
export function presentJob(row: TJobRow): TDownloadJob {
  const { spec } = row;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    tangram_ids: spec.tangram_ids,
    keys: spec.keys,
    start_ts: spec.start_ts,
    end_ts: spec.end_ts,
    mode: spec.mode,
    fn: spec.fn,
    bucket_ms: spec.bucket_ms,
    format: spec.format,
    rows_total: row.rowsTotal,
    rows_done: row.rowsDone,
    file_bytes: row.fileBytes,
    file_name: row.fileName,
    failure: row.failure,
    reason: row.reason,
    created_at: row.createdAt,
    finished_at: row.finishedAt,
    expires_at: row.expiresAt,
  };
}

const ownedBy = (principal: TPrincipal) =>
  and(eq(downloadJobs.tenantId, principal.tenantId), eq(downloadJobs.accountId, principal.accountId));

/** The default name: the first device, how many more, and the range's dates (UTC). */
function defaultName(spec: TDownloadJobSpec): string {
  const day = (ts: number) => new Date(ts).toISOString().slice(0, 10);
  const more = spec.tangram_ids.length > 1 ? `+${spec.tangram_ids.length - 1}` : '';
  return `${spec.tangram_ids[0]}${more}_${day(spec.start_ts)}_${day(spec.end_ts)}`;
}

/**
 * POST timeseries-records: records a job for `spec` (packaged by the worker; `nudge` wakes it).
 * @throws AppError 404 for a device the caller may not see; 403 DEVICE_PERMISSION_DENIED without download_data on one;
 *   409 DOWNLOAD_TOO_MANY when DOWNLOAD_MAX_PACKAGING of the caller's jobs are packaging.
 */
export async function createJob(db: Db, principal: TPrincipal, spec: TDownloadJobSpec): Promise<TDownloadJob> {
  const tangramIds = [...new Set(spec.tangram_ids.map((t) => t.toUpperCase()))];
  const deviceIds: number[] = [];
  for (const tangramId of tangramIds) deviceIds.push((await deviceFor(db, principal, tangramId, 'download_data')).id);
  const [{ packaging }] = await db
    .select({ packaging: count() })
    .from(downloadJobs)
    .where(and(ownedBy(principal), eq(downloadJobs.status, 'packaging')));
  if (packaging >= DOWNLOAD_MAX_PACKAGING) {
    throw conflict(`${DOWNLOAD_MAX_PACKAGING} exports are already being packaged; wait for one to finish`, 'DOWNLOAD_TOO_MANY');
  }
  const stored: TDownloadJobSpec = { ...spec, tangram_ids: tangramIds, keys: [...new Set(spec.keys)] };
  const [row] = await db
    .insert(downloadJobs)
    .values({
      tenantId: principal.tenantId,
      accountId: principal.accountId,
      name: spec.name || defaultName(stored),
      spec: stored,
      deviceIds,
      nextAttemptAt: Date.now(),
    })
    .returning();
  return presentJob(row);
}

/** GET timeseries-records: the caller's jobs, newest first; `q` searches names. */
export function listJobs(db: Db, principal: TPrincipal, query: TListQuery): Promise<TDownloadJobPage> {
  const where = and(ownedBy(principal), searchAny(query.q, [downloadJobs.name]));
  return pageOf(
    query,
    db.select({ total: count() }).from(downloadJobs).where(where),
    (limit, offset) => db.select().from(downloadJobs).where(where).orderBy(desc(downloadJobs.id)).limit(limit).offset(offset),
    presentJob,
  );
}

async function ownJob(db: Db, principal: TPrincipal, id: number): Promise<TJobRow> {
  const [row] = await db
    .select()
    .from(downloadJobs)
    .where(and(eq(downloadJobs.id, id), ownedBy(principal)));
  if (!row) throw notFound('export');
  return row;
}

/** GET timeseries-records/{id}. @throws AppError 404 for a job that is not the caller's. */
export async function getJob(db: Db, principal: TPrincipal, id: number): Promise<TDownloadJob> {
  return presentJob(await ownJob(db, principal, id));
}

/**
 * POST timeseries-records/{id}/cancel: a packaging job becomes `failed` (reason `cancelled`); its packager stops at
 * its next progress report and drops the partial file.
 * @throws AppError 404 for a job that is not the caller's; 409 DOWNLOAD_NOT_PACKAGING when it is no longer packaging.
 */
export async function cancelJob(db: Db, principal: TPrincipal, id: number): Promise<TDownloadJob> {
  await ownJob(db, principal, id);
  const now = Date.now();
  const [row] = await db
    .update(downloadJobs)
    .set({
      status: 'failed',
      jobState: 'done',
      failure: 'cancelled',
      reason: 'cancelled',
      finishedAt: now,
      expiresAt: now + DOWNLOAD_RETENTION_DAYS * DAY_MS,
    })
    .where(and(eq(downloadJobs.id, id), eq(downloadJobs.status, 'packaging')))
    .returning();
  if (!row) throw conflict('this export is no longer being packaged', 'DOWNLOAD_NOT_PACKAGING');
  return presentJob(row);
}

/** DELETE timeseries-records/{id}: removes the job (a packaging one stops) and its file. @throws AppError 404. */
export async function deleteJob(db: Db, blobs: TBlobStore, principal: TPrincipal, id: number): Promise<void> {
  await ownJob(db, principal, id);
  const [row] = await db.delete(downloadJobs).where(eq(downloadJobs.id, id)).returning({ blobKey: downloadJobs.blobKey });
  if (row?.blobKey) await blobs.remove(row.blobKey);
}

async function completedJob(db: Db, where: ReturnType<typeof and>): Promise<TJobRow> {
  const [row] = await db.select().from(downloadJobs).where(where);
  if (!row) throw notFound('export');
  if (row.status !== 'packaging completed' || !row.blobKey) {
    throw conflict('this export has no file (it is packaging or failed)', 'DOWNLOAD_NOT_READY');
  }
  return row;
}

/**
 * POST timeseries-records/{id}/link: a URL of the file carrying a token valid DOWNLOAD_LINK_TTL_S seconds, so the
 * browser downloads it to disk itself (no bearer header, no copy in the page's memory).
 * @throws AppError 404 for a job that is not the caller's; 409 DOWNLOAD_NOT_READY before it completed.
 */
export async function linkFor(db: Db, principal: TPrincipal, id: number): Promise<TDownloadLink> {
  await completedJob(db, and(eq(downloadJobs.id, id), ownedBy(principal)));
  const exp = Math.floor(Date.now() / 1000) + DOWNLOAD_LINK_TTL_S;
  const token = await new SignJWT({ jid: id })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(principal.accountId))
    .setAudience(LINK_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(await linkKey(db));
  return { url: `${downloadPaths.download(id)}?token=${encodeURIComponent(token)}`, expires_at: exp * 1000 };
}

/**
 * The file of job `id` for GET timeseries-records/{id}/download: its owner by bearer token, or anyone holding a link
 * token of that job.
 * @throws AppError 401 LINK_EXPIRED / LINK_INVALID for a bad link token (and 401 without either); 404 for a job that
 *   is not the caller's; 409 DOWNLOAD_NOT_READY; 410 DOWNLOAD_FILE_GONE when the file was removed.
 */
export async function openFile(
  db: Db,
  blobs: TBlobStore,
  id: number,
  by: { principal: TPrincipal | null; token?: string },
): Promise<{ fileName: string; bytes: number; stream: NodeJS.ReadableStream; format: 'csv' | 'zip' }> {
  let accountId: number;
  if (by.token !== undefined) {
    accountId = await verifyLink(db, by.token, id);
  } else if (by.principal) {
    accountId = by.principal.accountId;
  } else {
    throw unauthorized();
  }
  const row = await completedJob(db, and(eq(downloadJobs.id, id), eq(downloadJobs.accountId, accountId)));
  const file = await blobs.read(row.blobKey as string).catch(() => {
    throw new AppError(410, 'DOWNLOAD_FILE_GONE', 'the file of this export is gone; make the export again');
  });
  return { fileName: row.fileName ?? `export-${id}.${row.spec.format}`, bytes: file.bytes, stream: file.stream, format: row.spec.format };
}

async function verifyLink(db: Db, token: string, id: number): Promise<number> {
  try {
    const { payload } = await jwtVerify(token, await linkKey(db), { audience: LINK_AUDIENCE, algorithms: ['HS256'] });
    const claims = ZLinkClaims.parse(payload);
    if (claims.jid !== id) throw new Error('another job');
    return Number(claims.sub);
  } catch (err) {
    if (err instanceof errors.JWTExpired)
      throw unauthorized('this download link has expired; open it again from the download centre', 'LINK_EXPIRED');
    throw unauthorized('this download link is not valid', 'LINK_INVALID');
  }
}
