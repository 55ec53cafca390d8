/**
 * Compression of cold days (docs/decisions/telemetry-storage.md "Compression"): a hot partition whose whole range
 * went cold is moved under `telemetry_cold_pending` (one short transaction: readers see its rows all along), then
 * each of its days is merged into `telemetry_chunk` and the partition dropped (one transaction per day, so a crash
 * leaves a partition still pending, which the next run takes up again). Late points that `telemetry_default` holds
 * for cold days are merged the same way, and so are the days of the earlier layout's tables (key as text, migration
 * 0032) once cold: those partitions are compressed and dropped as they are, never moved into the new tables.
 */
import { DAY_MS } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { mergeDayIntoChunks, type TSourceKeys } from './chunks.js';
import { listPartitions, PARTITION_LOCK_TIMEOUT_MS, type TPartition } from './partitions.js';

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

/** Compresses one pending partition day by day; its last day's transaction drops it. */
async function compressPartition(db: Db, p: TPartition, out: TCompressResult, keys: TSourceKeys = 'ids'): Promise<void> {
  const days = await daysIn(db, p.name);
  for (const [i, day] of days.entries()) {
    const last = i === days.length - 1;
    const r = await db.transaction(async (tx) => {
      const merged = await mergeDayIntoChunks(tx, p.name, day, last ? 'read' : 'delete', keys);
      if (last) await tx.execute(sql`drop table ${sql.identifier(p.name)}`);
      return merged;
    });
    out.days += 1;
    out.dayStarts.push(day);
    out.points += r.points;
    out.duplicates += r.duplicates;
  }
  if (days.length === 0) await db.execute(sql`drop table ${sql.identifier(p.name)}`);
}

/** Merges the rows `table` holds for days before `beforeTs` into their chunks, a day per transaction. */
async function mergeLateDays(db: Db, table: string, beforeTs: number, keys: TSourceKeys, out: TCompressResult): Promise<void> {
  for (const day of await daysIn(db, table, beforeTs)) {
    const r = await db.transaction((tx) => mergeDayIntoChunks(tx, table, day, 'delete', keys));
    out.days += 1;
    out.dayStarts.push(day);
    out.points += r.points;
    out.duplicates += r.duplicates;
  }
}

/**
 * Compresses what the earlier layout's tables (key as text; migration 0032) hold of cold days: every partition of
 * `telemetry_text_keys_pending`, every partition of `telemetry_text_keys` lying wholly before `firstHotDay` (each
 * dropped once done) and the cold days of its default partition. Their hot days wait for a later run. Run before the
 * new tables' days are compressed, so a chunk holds these points (stored first) rather than a resend of them.
 */
async function compressTextKeyDays(db: Db, firstHotDay: number, out: TCompressResult): Promise<void> {
  for (const p of await listPartitions(db, 'telemetry_text_keys_pending')) await compressPartition(db, p, out, 'text');
  for (const p of await listPartitions(db, 'telemetry_text_keys')) {
    if (p.isDefault) await mergeLateDays(db, p.name, firstHotDay, 'text', out);
    else if (p.toTs !== null && p.toTs <= firstHotDay) await compressPartition(db, p, out, 'text');
  }
}

/**
 * One compression pass: compresses the cold days of the earlier layout's tables ({@link compressTextKeyDays}),
 * detaches the partitions gone cold ({@link detachColdPartitions}), compresses every pending partition, then merges
 * the points `telemetry_default` holds for cold days (late or resent points whose day was already compressed) into
 * their chunks, a day per transaction.
 */
export async function compressColdDays(db: Db, firstHotDay: number): Promise<TCompressResult> {
  const out: TCompressResult = { detached: [], days: 0, dayStarts: [], points: 0, duplicates: 0 };
  await compressTextKeyDays(db, firstHotDay, out);
  out.detached = await detachColdPartitions(db, firstHotDay);
  for (const p of await listPartitions(db, 'telemetry_cold_pending')) await compressPartition(db, p, out);
  await mergeLateDays(db, 'telemetry_default', firstHotDay, 'ids', out);
  return out;
}
