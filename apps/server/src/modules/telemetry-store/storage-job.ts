/**
 * The telemetry storage job: every run creates the hot day partitions ahead (and on demand for points that went to
 * `telemetry_default`), then compresses the days gone cold (compress.ts). Runs once across replicas: a run holds a
 * session advisory lock on a connection of its own (PostgreSQL), and a replica that does not get it skips the run.
 * Each step is its own transaction, so a crash loses at most the step under way, and the next run (on any replica)
 * starts from what the catalog and the tables say. docs/decisions/telemetry-storage.md.
 */
import { DAY_MS } from '@tessera/contracts';
import type { Database } from '../../db/client.js';
import { compressColdDays, type TCompressResult } from './compress.js';
import { firstHotDay } from './days.js';
import { ensureHotPartitions } from './partitions.js';

/** The advisory lock id that makes one replica at a time run the job. */
export const TELEMETRY_STORAGE_LOCK_ID = 727_022;

/** Days of hot partitions created ahead of today. */
export const PARTITION_DAYS_AHEAD = 2;

/** The job's settings. */
export interface TStorageSettings {
  /** How long a day stays hot (uncompressed rows) after it ended, in ms (default one day). */
  hotWindowMs: number;
}

/** What one run did; `skipped` when another replica held the lock. */
export type TStorageRun = { skipped: true } | ({ skipped: false; createdDays: number[] } & TCompressResult);

/**
 * Runs the job once at `nowMs` (epoch ms).
 * @throws the database error of a failed step (the steps before it stay done; the next run goes on from there).
 */
export async function runTelemetryStorage(database: Database, settings: TStorageSettings, nowMs = Date.now()): Promise<TStorageRun> {
  const client = database.pool ? await database.pool.connect() : undefined;
  try {
    if (client) {
      const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [TELEMETRY_STORAGE_LOCK_ID]);
      if (!rows[0].ok) return { skipped: true };
    }
    try {
      const hot = firstHotDay(nowMs, settings.hotWindowMs);
      const createdDays = await ensureHotPartitions(database.db, nowMs, hot, PARTITION_DAYS_AHEAD);
      return { skipped: false, createdDays, ...(await compressColdDays(database.db, hot)) };
    } finally {
      await client?.query('select pg_advisory_unlock($1)', [TELEMETRY_STORAGE_LOCK_ID]);
    }
  } finally {
    client?.release();
  }
}

/** The default hot window: one day. */
export const DEFAULT_HOT_WINDOW_MS = DAY_MS;
