/**
 * Packages one claimed download job into its file (docs/downloads.md "Packaging"): counts the rows (the progress
 * bar's total), streams the records of every device into one CSV or a zip of one CSV per device (yazl) written to
 * the blob store, reports progress and renews the job's lease at most every PROGRESS_EVERY_MS, and completes the job. Every write of the job is guarded by its attempt number and `packaging` state: a cancelled or
 * deleted job, or one another replica took over after this one lost its lease, stops the packaging and its file is
 * dropped.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq, inArray, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import type pg from 'pg';
import yazl from 'yazl';
import { DAY_MS, DOWNLOAD_RETENTION_DAYS, EXPORT_BUCKET_COLUMNS, EXPORT_RAW_COLUMNS, type TDownloadFailure } from '@tessera/contracts';
import type { TBlobStore, TBlobWriter } from '../../core/blob-store.js';
import { rowsOf, type Db } from '../../db/client.js';
import { devices, downloadJobs, telemetryLatest } from '../../db/schema.js';
import { countExportRows, exportChunks, type TExportDevice } from './export-rows.js';

/** How often progress is written and the lease renewed, in milliseconds. */
export const PROGRESS_EVERY_MS = 500;
/** A job's lease: a packager that has not renewed it for this long is presumed dead and the job is taken over. */
export const DOWNLOAD_LEASE_MS = 30_000;

/** The job is no longer this packager's: cancelled, deleted, or taken over by another replica. */
export class JobLost extends Error {
  constructor() {
    super('the job was cancelled, deleted or taken over');
  }
}

/** A failure with a reason the console shows (no retry helps). */
export class JobFailed extends Error {
  constructor(
    readonly failure: TDownloadFailure,
    message: string,
  ) {
    super(message);
  }
}

/** What packaging needs; `pool` (PostgreSQL) lets raw points stream through COPY. */
export interface TPackagerDeps {
  db: Db;
  blobs: TBlobStore;
  pool?: pg.Pool;
}

type TJobRow = typeof downloadJobs.$inferSelect;

/**
 * Packages job `job` (claimed, this packager's attempt `job.attempts`) until its file is complete and the job is
 * `packaging completed`.
 * @throws JobLost when the job stopped being this packager's; JobFailed for a reason in the job itself (no data,
 *   every device deleted); any other error for a fault worth a retry (database, storage).
 */
export async function packageJob(deps: TPackagerDeps, job: TJobRow, signal: AbortSignal): Promise<void> {
  const { db, blobs } = deps;
  const spec = job.spec;
  const mine = and(eq(downloadJobs.id, job.id), eq(downloadJobs.attempts, job.attempts), eq(downloadJobs.status, 'packaging'));
  const touch = async (set: Partial<TJobRow>) => {
    const done = await db
      .update(downloadJobs)
      .set({ ...set, nextAttemptAt: Date.now() + DOWNLOAD_LEASE_MS })
      .where(mine)
      .returning({ id: downloadJobs.id });
    if (done.length === 0) throw new JobLost();
  };

  const found = await db
    .select({ id: devices.id, tangramId: devices.tangramId })
    .from(devices)
    .where(and(inArray(devices.id, job.deviceIds), eq(devices.tenantId, job.tenantId)));
  const exportDevices = job.deviceIds.map((id) => found.find((d) => d.id === id)).filter((d): d is TExportDevice => d !== undefined);
  if (exportDevices.length === 0) throw new JobFailed('device_gone', 'none of the devices exists any more');
  const keysOf = new Map<number, string[]>();
  let total = 0;
  for (const device of exportDevices) {
    const keys = spec.keys.length > 0 ? spec.keys : await reportedKeys(db, device.id);
    keysOf.set(device.id, keys);
    total += await countExportRows(db, spec, device, keys);
  }
  if (total === 0) throw new JobFailed('no_data', 'no data in the selected period');
  await touch({ rowsTotal: total, rowsDone: 0 });

  let done = 0;
  let reportedAt = Date.now();
  // One CSV text chunk per batch read, after the header: no per-record stream work, so packaging keeps up with the
  // database.
  async function* csvOf(device: TExportDevice | null): AsyncGenerator<string | Buffer> {
    yield `${Papa.unparse([columns], { newline: '\n' })}\n`;
    for (const d of device ? [device] : exportDevices) {
      for await (const chunk of exportChunks(db, spec, d, keysOf.get(d.id) ?? [], { pool: deps.pool })) {
        signal.throwIfAborted();
        yield chunk.text;
        done += chunk.rows;
        if (Date.now() - reportedAt >= PROGRESS_EVERY_MS) {
          reportedAt = Date.now();
          await touch({ rowsDone: done });
        }
      }
    }
  }
  const columns = spec.mode === 'raw' ? [...EXPORT_RAW_COLUMNS] : [...EXPORT_BUCKET_COLUMNS];

  const ext = spec.format === 'zip' ? 'zip' : 'csv';
  const blobKey = `downloads/${job.tenantId}/${job.id}-${job.attempts}.${ext}`;
  const writer = await blobs.writer(blobKey);
  try {
    if (spec.format === 'csv') {
      await pipeline(Readable.from(csvOf(null), { highWaterMark: 1 }), writer.stream, { signal });
    } else {
      await writeZip(
        writer,
        exportDevices,
        (device, onError) => {
          const csv = Readable.from(csvOf(device), { highWaterMark: 1 });
          csv.on('error', onError);
          return csv;
        },
        signal,
      );
    }
    const bytes = await writer.commit();
    const finishedAt = Date.now();
    const fileName = `${safeName(job.name)}.${ext}`;
    try {
      await touch({
        status: 'packaging completed',
        jobState: 'done',
        rowsDone: done,
        blobKey,
        fileName,
        fileBytes: bytes,
        finishedAt,
        expiresAt: finishedAt + DOWNLOAD_RETENTION_DAYS * DAY_MS,
      });
    } catch (err) {
      await blobs.remove(blobKey);
      throw err;
    }
  } catch (err) {
    await writer.abort();
    throw err;
  }
}

/** One CSV entry per device (`{tangramId}.csv`), each made only when the zip reaches it. */
async function writeZip(
  writer: TBlobWriter,
  exportDevices: TExportDevice[],
  csvOf: (device: TExportDevice, onError: (err: Error) => void) => Readable,
  signal: AbortSignal,
): Promise<void> {
  const zip = new yazl.ZipFile();
  // An error while making an entry fails the whole file.
  const fail = (err: Error) => (zip.outputStream as unknown as Readable).destroy(err);
  for (const device of exportDevices) {
    zip.addReadStreamLazy(`${device.tangramId}.csv`, (cb) => cb(null, csvOf(device, fail)));
  }
  zip.end();
  await pipeline(zip.outputStream as unknown as Readable, writer.stream, { signal });
}

async function reportedKeys(db: Db, deviceId: number): Promise<string[]> {
  const rows = await db
    .select({ key: telemetryLatest.key })
    .from(telemetryLatest)
    .where(eq(telemetryLatest.deviceId, deviceId))
    .orderBy(telemetryLatest.key);
  return rows.map((r) => r.key);
}

/** A job name as a file name: letters, digits, CJK, `-` and `_` kept, the rest `_`, at most 64 characters. */
export function safeName(name: string): string {
  const cleaned = name.replace(/[^\p{L}\p{N}_-]+/gu, '_').replace(/^_+|_+$/g, '');
  return cleaned.slice(0, 64) || 'export';
}

/** The rows of jobs whose retention ended (completed or failed), deleted; answers their blob keys. */
export async function deleteExpiredJobs(db: Db, now = Date.now()): Promise<string[]> {
  const rows = rowsOf<{ blob_key: string | null }>(
    await db.execute(sql`delete from download_jobs where expires_at < ${now} returning blob_key`),
  );
  return rows.map((r) => r.blob_key).filter((k): k is string => k !== null);
}
