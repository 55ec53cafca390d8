/**
 * Compression of cold days (docs/decisions/telemetry-storage.md "Compression"): a hot partition whose whole range
 * went cold is moved under `telemetry_cold_pending` (one short transaction: readers see its rows all along), then
 * each of its days is merged into `telemetry_chunk` a slice of series at a time, paced (slices.ts, pacing.ts), and
 * the partition dropped once every day is merged (a crash or a stop leaves it pending with its progress recorded;
 * the next run goes on from there). Late points that `telemetry_default` holds for cold days are merged the same way
 * (deleted slice by slice), and so are the days of the earlier layout's tables (key as text, migration 0032) once
 * cold: those partitions are compressed and dropped as they are, never moved into the new tables.
 */
import { DAY_MS } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import type { TSourceKeys } from './chunks.js';
import { UNPACED } from './pacing.js';
import { listPartitions, PARTITION_LOCK_TIMEOUT_MS, type TPartition } from './partitions.js';
import { clearProgress, COMPRESS_SLICE_POINTS, mergeDayInSlices, type TSlicing } from './slices.js';

/** What a compression pass did. */
export interface TCompressResult {
  /** Partitions moved from `telemetry` to `telemetry_cold_pending`. */
  detached: string[];
  /** Days merged into chunks (from pending partitions and from `telemetry_default`). */
  days: number;
  /** Those days' starts (UTC midnights, epoch ms; a day merged twice in one pass is listed twice). */
  dayStarts: number[];
  /** Points merged. */
  points: number;
  /** Points a chunk already held (resent points, counted once). */
  duplicates: number;
  /** Transactions the days were merged in (slices of series). */
  slices: number;
  /** Whether the pass stopped before its end because the run was asked to stop (what it did stays done). */
  stopped: boolean;
}

/** Adds a day's merge to the pass's result (the day listed once it has a slice merged). */
function addDay(out: TCompressResult, day: number, r: { points: number; duplicates: number; slices: number }): void {
  if (r.slices === 0) return;
  out.days += 1;
  out.dayStarts.push(day);
  out.points += r.points;
  out.duplicates += r.duplicates;
  out.slices += r.slices;
}

/**
 * Moves every hot partition lying wholly before `firstHotDay` under `telemetry_cold_pending`, one transaction each:
 * DETACH takes ACCESS EXCLUSIVE on `telemetry` for a moment (ingest waits at most {@link PARTITION_LOCK_TIMEOUT_MS}
 * for it; if not granted, the next run tries again). The partition's CHECK of its range spares the attach a scan.
 */
export async function detachColdPartitions(db: Db, firstHotDay: number): Promise<string[]> {
  const cold = (await listPartitions(db, 'telemetry')).filter((p) => !p.isDefault && p.toTs !== null && p.toTs <= firstHotDay);
  for (const p of cold) {
    const name = sql.identifier(p.name);
    const from = sql.raw(p.fromTs === null ? 'minvalue' : String(p.fromTs));
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = ${PARTITION_LOCK_TIMEOUT_MS}`));
      await tx.execute(sql`alter table telemetry detach partition ${name}`);
      await tx.execute(
        sql`alter table telemetry_cold_pending attach partition ${name} for values from (${from}) to (${sql.raw(String(p.toTs))})`,
      );
    });
  }
  return cold.map((p) => p.name);
}

/** The UTC days (midnights, ascending) that rows of `table` with ts before `beforeTs` fall on. */
async function daysIn(db: Db, table: string, beforeTs = Number.MAX_SAFE_INTEGER): Promise<number[]> {
  const rows = rowsOf<{ day: number }>(
    await db.execute(sql`select distinct ts - ts % ${DAY_MS} as day from ${sql.identifier(table)} where ts < ${beforeTs} order by 1`),
  );
  return rows.map((r) => Number(r.day));
}

/** The days of partition `p`: its one day when its range is a UTC day (no scan), else the days its rows fall on. */
function daysOfPartition(db: Db, p: TPartition, slicing: TSlicing): Promise<number[]> {
  if (p.fromTs !== null && p.toTs !== null && p.fromTs % DAY_MS === 0 && p.toTs - p.fromTs === DAY_MS) return Promise.resolve([p.fromTs]);
  return slicing.pacer.run(() => daysIn(db, p.name));
}

/**
 * Compresses one pending partition day by day, in slices (read, progress recorded), then drops it with its progress
 * rows in one transaction. Answers false when the run was stopped before it was done.
 */
async function compressPartition(
  db: Db,
  p: TPartition,
  out: TCompressResult,
  slicing: TSlicing,
  keys: TSourceKeys = 'ids',
): Promise<boolean> {
  for (const day of await daysOfPartition(db, p, slicing)) {
    const r = await mergeDayInSlices(db, p.name, day, 'read', keys, slicing);
    addDay(out, day, r);
    if (!r.done) return false;
  }
  await db.transaction(async (tx) => {
    await clearProgress(tx, p.name);
    await tx.execute(sql`drop table ${sql.identifier(p.name)}`);
  });
  return true;
}

/**
 * Merges the rows `table` holds for days before `beforeTs` into their chunks, in slices that delete what they merged.
 * Answers false when the run was stopped before it was done.
 */
async function mergeLateDays(
  db: Db,
  table: string,
  beforeTs: number,
  keys: TSourceKeys,
  out: TCompressResult,
  slicing: TSlicing,
): Promise<boolean> {
  for (const day of await slicing.pacer.run(() => daysIn(db, table, beforeTs))) {
    const r = await mergeDayInSlices(db, table, day, 'delete', keys, slicing);
    addDay(out, day, r);
    if (!r.done) return false;
  }
  return true;
}

/**
 * Compresses what the earlier layout's tables (key as text; migration 0032) hold of cold days: every partition of
 * `telemetry_text_keys_pending`, every partition of `telemetry_text_keys` lying wholly before `firstHotDay` (each
 * dropped once done) and the cold days of its default partition. Their hot days wait for a later run. Run before the
 * new tables' days are compressed, so a chunk holds these points (stored first) rather than a resend of them.
 */
async function compressTextKeyDays(db: Db, firstHotDay: number, out: TCompressResult, slicing: TSlicing): Promise<boolean> {
  for (const p of await listPartitions(db, 'telemetry_text_keys_pending'))
    if (!(await compressPartition(db, p, out, slicing, 'text'))) return false;
  for (const p of await listPartitions(db, 'telemetry_text_keys')) {
    if (p.isDefault) {
      if (!(await mergeLateDays(db, p.name, firstHotDay, 'text', out, slicing))) return false;
    } else if (p.toTs !== null && p.toTs <= firstHotDay && !(await compressPartition(db, p, out, slicing, 'text'))) return false;
  }
  return true;
}

/**
 * One compression pass: compresses the cold days of the earlier layout's tables ({@link compressTextKeyDays}),
 * detaches the partitions gone cold ({@link detachColdPartitions}), compresses every pending partition, then merges
 * the points `telemetry_default` holds for cold days (late or resent points whose day was already compressed) into
 * their chunks. Every merge goes in slices of about `slicing.slicePoints` points, each followed by the pacer's rest;
 * a stopped pacer ends the pass after the slice under way (`stopped`), and the next pass goes on from there.
 * Unpaced unless `slicing` says otherwise.
 * @throws the database error of a failed slice or partition change (what was done before it stays done).
 */
export async function compressColdDays(db: Db, firstHotDay: number, slicing: Partial<TSlicing> = {}): Promise<TCompressResult> {
  const s: TSlicing = { pacer: UNPACED, slicePoints: COMPRESS_SLICE_POINTS, ...slicing };
  const out: TCompressResult = { detached: [], days: 0, dayStarts: [], points: 0, duplicates: 0, slices: 0, stopped: true };
  if (!(await compressTextKeyDays(db, firstHotDay, out, s))) return out;
  out.detached = await detachColdPartitions(db, firstHotDay);
  for (const p of await listPartitions(db, 'telemetry_cold_pending')) if (!(await compressPartition(db, p, out, s))) return out;
  if (!(await mergeLateDays(db, 'telemetry_default', firstHotDay, 'ids', out, s))) return out;
  out.stopped = false;
  return out;
}
