/**
 * A day of a source table merged into chunks a slice at a time (docs/decisions/telemetry-storage.md "Pacing"): each
 * slice is a run of whole series (device, key) in the source's primary key order, sized to about
 * `slicePoints` points, merged in a transaction of its own and followed by the pacer's rest.
 *
 * A partition that is dropped once done is read, not deleted from (a delete costs about 20× the read: measured in
 * the decision doc): each slice's transaction records in `telemetry_compress_progress` the last series it merged,
 * so a run cut short (crash, stop) goes on after it and never takes a merged point again — which its merge would
 * count as a resend and take off the rollups. `telemetry_points()` leaves out a pending row whose series the
 * progress row has passed (migration 0034): the chunk holds it. A source that stays (a default partition) is
 * deleted from, slice by slice, and needs no progress.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { type TConsume, type TMergeResult, mergeDayIntoChunks, seriesCompare, type TSeries, type TSourceKeys } from './chunks.js';
import type { Pacer } from './pacing.js';

/** The default points of a slice: a few tenths of a second of a core. */
export const COMPRESS_SLICE_POINTS = 20_000;
/** Series of the first slice of a day: one, to learn its points per series (later slices are sized from them). */
const FIRST_SLICE_SERIES = 1;
/** At most this many series per slice (a day of very sparse series). */
const MAX_SLICE_SERIES = 5_000;

/** Test hook: called inside each slice's transaction after its merge (a throw there rolls the slice back). */
export type TCompressSliceHook = (slice: { source: string; dayStart: number; through: TSeries }) => void;

/** What one day's slices did; `done` false when the run was stopped before the day's last slice. */
export interface TDayMerge extends TMergeResult {
  done: boolean;
  slices: number;
}

/** How a day is sliced and paced. */
export interface TSlicing {
  pacer: Pacer;
  slicePoints: number;
  onSlice?: TCompressSliceHook;
}

/** The last series of `source`'s day merged by earlier slices (progress), or null. */
async function readProgress(db: Db, source: string, dayStart: number, keys: TSourceKeys): Promise<TSeries | null> {
  const [row] = rowsOf<{ device_id: number; key_id: number | null; key: string | null }>(
    await db.execute(
      sql`select device_id, key_id, key from telemetry_compress_progress where source = ${source} and day_start = ${dayStart}`,
    ),
  );
  if (!row) return null;
  return { deviceId: Number(row.device_id), key: keys === 'ids' ? Number(row.key_id) : (row.key as string) };
}

/** Records in `tx` that `source`'s day is merged through series `through`. */
async function writeProgress(tx: Db, source: string, dayStart: number, keys: TSourceKeys, through: TSeries): Promise<void> {
  const keyId = keys === 'ids' ? Number(through.key) : null;
  const key = keys === 'text' ? String(through.key) : null;
  await tx.execute(sql`insert into telemetry_compress_progress (source, day_start, device_id, key_id, key)
    values (${source}, ${dayStart}, ${through.deviceId}, ${keyId}, ${key})
    on conflict (source, day_start) do update set device_id = excluded.device_id, key_id = excluded.key_id, key = excluded.key`);
}

/** Forgets `source`'s progress rows (in the transaction that drops it). */
export async function clearProgress(tx: Db, source: string): Promise<void> {
  await tx.execute(sql`delete from telemetry_compress_progress where source = ${source}`);
}

/**
 * The next `count` series of `source` after `after` (null: from the first) in its primary key's order, found by a
 * skip scan of the primary key (one index probe per series, whatever the points per series).
 */
async function nextSeries(db: Db, source: string, keys: TSourceKeys, after: TSeries | null, count: number): Promise<TSeries[]> {
  const src = sql.identifier(source);
  const keyCol = sql.raw(keys === 'ids' ? 'key_id' : 'key');
  const first = after ? sql`where ${seriesCompare(keys, '>', after)}` : sql``;
  const rows = rowsOf<{ device_id: number; key: number | string }>(
    await db.execute(sql`with recursive s as (
        (select device_id, ${keyCol} as key, 1 as i from ${src} ${first} order by device_id, ${keyCol} limit 1)
        union all
        select n.device_id, n.key, s.i + 1 from s cross join lateral (
          select t.device_id, t.${keyCol} as key from ${src} t where (t.device_id, t.${keyCol}) > (s.device_id, s.key)
          order by t.device_id, t.${keyCol} limit 1
        ) as n where s.i < ${count}
      ) select device_id, key from s`),
  );
  return rows.map((r) => ({ deviceId: Number(r.device_id), key: keys === 'ids' ? Number(r.key) : String(r.key) }));
}

/**
 * Merges the day `dayStart` of `source` into chunks slice by slice ({@link mergeDayIntoChunks} on a range of
 * series per transaction), resting after each slice as `slicing.pacer` says. `consume` 'read' records progress and
 * starts after it (the caller drops the table once every day is done, with {@link clearProgress}); 'delete' takes
 * the rows out of the source. Stops before a slice when the pacer is stopped (`done` false).
 * @throws the database error of a failed slice (the slices before it stay merged and recorded).
 */
export async function mergeDayInSlices(
  db: Db,
  source: string,
  dayStart: number,
  consume: TConsume,
  keys: TSourceKeys,
  slicing: TSlicing,
): Promise<TDayMerge> {
  const out: TDayMerge = { points: 0, duplicates: 0, done: false, slices: 0 };
  let after = consume === 'read' ? await readProgress(db, source, dayStart, keys) : null;
  let count = FIRST_SLICE_SERIES;
  for (;;) {
    if (slicing.pacer.isStopped) return out;
    const slice = await slicing.pacer.run(async () => {
      const series = await nextSeries(db, source, keys, after, count);
      if (series.length === 0) return null;
      const through = series[series.length - 1];
      const merged = await db.transaction(async (tx) => {
        const r = await mergeDayIntoChunks(tx, source, dayStart, consume, keys, { after, through });
        if (consume === 'read') await writeProgress(tx, source, dayStart, keys, through);
        slicing.onSlice?.({ source, dayStart, through });
        return r;
      });
      return { merged, through, series: series.length };
    });
    if (!slice) {
      out.done = true;
      return out;
    }
    out.points += slice.merged.points;
    out.duplicates += slice.merged.duplicates;
    out.slices += 1;
    after = slice.through;
    // the next slice's series from this one's points per series (no point: series of other days, take twice as many)
    const perSeries = slice.merged.points / slice.series;
    count = perSeries > 0 ? Math.round(slicing.slicePoints / perSeries) : count * 2;
    count = Math.min(MAX_SLICE_SERIES, Math.max(1, count));
  }
}
