/**
 * The partitions of raw telemetry (`telemetry`, hot) and of the days waiting for compression
 * (`telemetry_cold_pending`), read from the catalog, and the creation of day partitions: ahead of time, and on
 * demand for hot days whose points went to `telemetry_default` because their partition did not exist yet.
 * docs/decisions/telemetry-storage.md "Partitions".
 */
import { DAY_MS } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { dayPartitionName, dayStartOf } from './days.js';

/** One partition: its table and the range of `ts` it holds, [fromTs, toTs) (null: unbounded), or the default. */
export interface TPartition {
  name: string;
  fromTs: number | null;
  toTs: number | null;
  isDefault: boolean;
}

/**
 * The tables of the layout before migration 0032 (the key as text): no longer in schema.ts, kept readable by
 * `telemetry_points()` until the storage job has compressed their days and dropped their partitions.
 */
export const TEXT_KEY_LAYOUT_TABLES = ['telemetry_text_keys', 'telemetry_text_keys_pending'] as const;

/** The parents whose partitions the storage job manages (the last two: the earlier layout's, migration 0032). */
export type TPartitionParent = 'telemetry' | 'telemetry_cold_pending' | (typeof TEXT_KEY_LAYOUT_TABLES)[number];

const BOUND = /FROM \((MINVALUE|'?(-?\d+)'?)\) TO \((MAXVALUE|'?(-?\d+)'?)\)/;

/** The partitions of `parent`, ordered by their lower bound (the default last). */
export async function listPartitions(db: Db, parent: TPartitionParent): Promise<TPartition[]> {
  const rows = rowsOf<{ name: string; bound: string }>(
    await db.execute(sql`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${parent}::regclass`),
  );
  const parts = rows.map(({ name, bound }) => {
    const m = BOUND.exec(bound);
    return {
      name,
      fromTs: m?.[2] === undefined ? null : Number(m[2]),
      toTs: m?.[4] === undefined ? null : Number(m[4]),
      isDefault: m === null,
    };
  });
  return parts.sort((a, b) => Number(a.isDefault) - Number(b.isDefault) || (a.fromTs ?? -Infinity) - (b.fromTs ?? -Infinity));
}

/** Whether some non-default partition of `parts` holds `ts`. */
export function isCovered(parts: readonly TPartition[], ts: number): boolean {
  return parts.some((p) => !p.isDefault && (p.fromTs === null || p.fromTs <= ts) && (p.toTs === null || ts < p.toTs));
}

/** How long a partition change waits for the locks it needs before giving up until the next run (ms). */
export const PARTITION_LOCK_TIMEOUT_MS = 2_000;

/**
 * Creates the hot partition of the day starting at `dayStart` and moves into it the rows `telemetry_default` holds
 * for that day, in one transaction: a point is in the default partition or in its day's, never lost between.
 * The new table carries a CHECK of its range, so attaching it scans nothing but the default partition.
 * Locks: ACCESS EXCLUSIVE on `telemetry_default` (taken first, so no deadlock with ingest; writes routed to other
 * partitions go on) and SHARE UPDATE EXCLUSIVE on `telemetry`, each waited for at most
 * {@link PARTITION_LOCK_TIMEOUT_MS}.
 * @throws the database error when a lock is not granted in time (the next run tries again) or the day is covered.
 */
export async function createDayPartition(db: Db, dayStart: number): Promise<number> {
  const name = sql.identifier(dayPartitionName(dayStart));
  const from = sql.raw(String(dayStart));
  const to = sql.raw(String(dayStart + DAY_MS));
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = ${PARTITION_LOCK_TIMEOUT_MS}`));
    await tx.execute(sql`lock table telemetry_default in access exclusive mode`);
    await tx.execute(sql`create table ${name} (like telemetry including all,
      check (ts >= ${from} and ts < ${to}))`);
    const moved = rowsOf<{ n: number }>(
      await tx.execute(sql`with moved as (delete from telemetry_default where ts >= ${from} and ts < ${to} returning *)
        , ins as (insert into ${name} select * from moved returning 1) select count(*)::int as n from ins`),
    );
    await tx.execute(sql`alter table telemetry attach partition ${name} for values from (${from}) to (${to})`);
    return moved[0].n;
  });
}

/**
 * Makes sure every day from `firstHotDay` to `aheadDays` after today (`nowMs`) has a hot partition, and that
 * every hot day with points in `telemetry_default` gets one (those rows moved into it).
 * @returns the day starts whose partitions were created.
 */
export async function ensureHotPartitions(db: Db, nowMs: number, firstHotDay: number, aheadDays: number): Promise<number[]> {
  const parts = await listPartitions(db, 'telemetry');
  const days = new Set<number>();
  for (let day = firstHotDay; day <= dayStartOf(nowMs) + aheadDays * DAY_MS; day += DAY_MS) days.add(day);
  const stray = rowsOf<{ day: number }>(
    await db.execute(sql`select distinct ts - ts % ${DAY_MS} as day from telemetry_default where ts >= ${firstHotDay}`),
  );
  for (const { day } of stray) days.add(Number(day));
  const created: number[] = [];
  for (const day of [...days].sort((a, b) => a - b)) {
    if (isCovered(parts, day)) continue;
    await createDayPartition(db, day);
    created.push(day);
  }
  return created;
}
