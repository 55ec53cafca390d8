/**
 * The telemetry storage job: every run creates the hot day partitions ahead (and on demand for points that went to
 * `telemetry_default`), then compresses the days gone cold (compress.ts). Runs once across replicas: a run holds a
 * session advisory lock on a connection of its own (PostgreSQL), and a replica that does not get it skips the run.
 * Each step is its own transaction, so a crash loses at most the step under way, and the next run (on any replica)
 * starts from what the catalog and the tables say. Its work is paced (pacing.ts): busy at most `busyPercent` of the
 * time, and stoppable between two transactions. docs/decisions/telemetry-storage.md.
 */
import { DAY_MS } from '@tessera/contracts';
import type { Database } from '../../db/client.js';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.js';
import { compressColdDays, type TCompressResult } from './compress.js';
import { firstHotDay } from './days.js';
import { ensureHotPartitions } from './partitions.js';
import { Pacer } from './pacing.js';
import { expireByRetention, type TExpiryBatchHook, type TExpiryResult } from './retention.js';
import { COMPRESS_SLICE_POINTS, type TCompressSliceHook } from './slices.js';
import { refreshDailyUsage } from './usage-daily.js';

/** The advisory lock id that makes one replica at a time run the job. */
export const TELEMETRY_STORAGE_LOCK_ID = 727_022;

/** Days of hot partitions created ahead of today. */
export const PARTITION_DAYS_AHEAD = 2;

/** The job's settings. */
export interface TStorageSettings {
  /** How long a day stays hot (uncompressed rows) after it ended, in ms (default one day). */
  hotWindowMs: number;
  /**
   * The share of the time the job may be busy, in percent (TELEMETRY_STORAGE_BUSY_PERCENT): after each slice or
   * batch it rests that piece's duration × (100 − busyPercent) / busyPercent. Absent: 100 (no rest).
   */
  busyPercent?: number;
  /** Points per compression slice (default {@link COMPRESS_SLICE_POINTS}). */
  compressSlicePoints?: number;
}

/** What a caller can hook into a run: a stop signal (between two transactions) and test hooks. */
export interface TStorageRunOptions {
  /** Aborted: the run ends after the transaction under way; what it did stays done, the next run goes on. */
  signal?: AbortSignal;
  /** Test hook, inside each expiry batch's transaction (retention.ts). */
  onExpiryBatch?: TExpiryBatchHook;
  /** Test hook, inside each compression slice's transaction (slices.ts). */
  onCompressSlice?: TCompressSliceHook;
}

/** What one run did; `skipped` when another replica held the lock. */
export type TStorageRun =
  | { skipped: true }
  | ({ skipped: false; runId: number; createdDays: number[]; expired: TExpiryResult } & TCompressResult);

/**
 * Runs `work` holding the job's advisory lock on a connection of its own (PostgreSQL), or at once on PGlite (one
 * process owns the data directory). Resolves `undefined` without running it when another replica holds the lock.
 */
async function withStorageLock<T>(database: Database, work: () => Promise<T>): Promise<T | undefined> {
  const client = database.pool ? await database.pool.connect() : undefined;
  try {
    if (client) {
      const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [TELEMETRY_STORAGE_LOCK_ID]);
      if (!rows[0].ok) return undefined;
    }
    try {
      return await work();
    } finally {
      await client?.query('select pg_advisory_unlock($1)', [TELEMETRY_STORAGE_LOCK_ID]);
    }
  } finally {
    client?.release();
  }
}

/** Starts a row of `telemetry_storage_runs` (what the platform admin sees) and answers its id. */
async function startRun(db: Database['db'], nowMs: number): Promise<number> {
  const [row] = rowsOf<{ id: number }>(
    await db.execute(sql`insert into telemetry_storage_runs (started_at) values (${nowMs}) returning id`),
  );
  return row.id;
}

/**
 * Runs the job once at `nowMs` (epoch ms): hot partitions, compression of cold days (and the sizes of the days it
 * compressed), then expiry by each project's retention, paced by `settings.busyPercent`; `options.signal` stops it
 * between two transactions (then `stopped`, and the expiry is not started).
 * @throws the database error of a failed step (the steps before it stay done, the run row says the error; the next
 * run goes on from there).
 */
export async function runTelemetryStorage(
  database: Database,
  settings: TStorageSettings,
  nowMs = Date.now(),
  options: TStorageRunOptions = {},
): Promise<TStorageRun> {
  const db = database.db;
  const pacer = new Pacer(settings.busyPercent, options.signal);
  const run = await withStorageLock(database, async () => {
    const runId = await startRun(db, nowMs);
    try {
      const hot = firstHotDay(nowMs, settings.hotWindowMs);
      const createdDays = await ensureHotPartitions(db, nowMs, hot, PARTITION_DAYS_AHEAD);
      const compressed = await compressColdDays(db, hot, {
        pacer,
        slicePoints: settings.compressSlicePoints ?? COMPRESS_SLICE_POINTS,
        onSlice: options.onCompressSlice,
      });
      await refreshDailyUsage(db, compressed.dayStarts);
      const expired = await expireByRetention(db, runId, nowMs, options.onExpiryBatch, pacer);
      await db.execute(sql`update telemetry_storage_runs set finished_at = ${Date.now()}, days_compressed = ${compressed.days},
        points_compressed = ${compressed.points} where id = ${runId}`);
      return { skipped: false as const, runId, createdDays, ...compressed, stopped: pacer.isStopped, expired };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await db.execute(sql`update telemetry_storage_runs set error = ${message.slice(0, 500)} where id = ${runId}`).catch(() => undefined);
      throw err;
    }
  });
  return run ?? { skipped: true };
}

/**
 * Creates the hot day partitions (today's and {@link PARTITION_DAYS_AHEAD} ahead) before the server takes points, so
 * that the first points of a fresh database go to their day's partition rather than to `telemetry_default` (from
 * where a later run would move them while ingest writes there). Skipped when another replica runs the job.
 * @returns the day starts whose partitions were created.
 * @throws the database error of a partition that could not be created (the job's next run tries again).
 */
export async function prepareHotPartitions(database: Database, settings: TStorageSettings, nowMs = Date.now()): Promise<number[]> {
  const hot = firstHotDay(nowMs, settings.hotWindowMs);
  return (await withStorageLock(database, () => ensureHotPartitions(database.db, nowMs, hot, PARTITION_DAYS_AHEAD))) ?? [];
}

/** The default hot window: one day. */
export const DEFAULT_HOT_WINDOW_MS = DAY_MS;
