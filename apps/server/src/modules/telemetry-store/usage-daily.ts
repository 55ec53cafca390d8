/**
 * The sums the console reads sizes from (docs/decisions/telemetry-storage.md "Sizes"): per project and compressed
 * UTC day, the points in its chunks, their bytes and the rollup rows of that day, written by the storage job after it
 * compressed (or merged late points into) the day — a scan of that day's chunks only.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/**
 * Bytes a chunk row takes beside its arrays: the heap tuple (header, device, key, day, n, first ts, step) and its
 * primary-key index entry. Measured: pg_total_relation_size of telemetry_chunk against the sum of its arrays' sizes.
 */
export const CHUNK_ROW_OVERHEAD_BYTES = 120;

/** Bytes of one chunk row: its arrays as stored (compressed, TOASTed or not) plus {@link CHUNK_ROW_OVERHEAD_BYTES}. */
const CHUNK_BYTES = sql.raw(`pg_column_size(c.ts_steps) + coalesce(pg_column_size(c.recv_lags), 0)
  + coalesce(pg_column_size(c.recv_lags_wide), 0) + coalesce(pg_column_size(c.v1), 0) + coalesce(pg_column_size(c.v2), 0)
  + coalesce(pg_column_size(c.v3), 0) + ${CHUNK_ROW_OVERHEAD_BYTES}`);

/**
 * Recomputes the usage rows of the UTC days `dayStarts` from their chunks, for every project with chunks that day.
 * Rollup rows are estimated per chunk as at most 1,440 one-minute and 24 one-hour buckets (exact for a series with a
 * point a minute or more).
 */
export async function refreshDailyUsage(db: Db, dayStarts: readonly number[]): Promise<void> {
  for (const day of new Set(dayStarts)) {
    await db.execute(sql`insert into telemetry_usage_daily (project_id, day_start, points, chunk_bytes, rollup_1m_rows, rollup_1h_rows)
      select d.project_id, c.day_start, sum(c.n), sum(${CHUNK_BYTES}), sum(least(c.n, 1440)), sum(least(c.n, 24))
      from telemetry_chunk c join devices d on d.id = c.device_id
      where c.day_start = ${day} group by 1, 2
      on conflict (project_id, day_start) do update set points = excluded.points, chunk_bytes = excluded.chunk_bytes,
        rollup_1m_rows = excluded.rollup_1m_rows, rollup_1h_rows = excluded.rollup_1h_rows`);
  }
}
