/**
 * Writes one ingest batch as ONE statement — so one round trip, its own transaction (autocommit), and row locks held
 * only while PostgreSQL runs it and flushes its commit, never across a round trip to Node: raw telemetry (ON
 * CONFLICT DO NOTHING on (device_id, key, ts)), rollups of the newly inserted rows only (1 min and 1 h buckets,
 * ROLLUP_BUCKETS_MS), telemetry_latest and status words (device_status + devices.status_value/status_ts), each moved
 * forward only by a point that ranks after the one held (latest-order.ts: ts capped at the receive time),
 * devices.last_seen_at/first_seen_at, and rejected-point counters (device_ingest_stats). Either all of it commits or
 * none of it. Every part is a data-modifying CTE (write-telemetry.ts, write-sql.ts) taking whole columns as arrays
 * through `unnest`, so a batch costs one statement whatever its size; PostgreSQL aggregates the rollups and latest
 * from the inserted rows. The CTEs share one snapshot: none sees another's changes, and none needs to (each table is
 * changed by one CTE; write-sql.ts says why the status probe is unaffected). Rows are sorted by primary key (and the
 * device rows locked in id order) so that concurrent batches lock in the same order (no deadlocks).
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { devicesCte, ingestStatsCte, statusCte } from './write-sql.js';
import { telemetryCtes } from './write-telemetry.js';
import { sortStatus, sortTelemetry } from './write-sort.js';
import type { TBatchResult, TIngestBatch } from './rows.js';

export type { TBatchResult, TIngestBatch, TRejectedIn, TStatusRowIn, TTelemetryRowIn } from './rows.js';

/**
 * Writes `batch` atomically in one statement.
 * @throws the database error when the statement fails (nothing of the batch is stored).
 */
export async function writeIngestBatch(db: Db, batch: TIngestBatch): Promise<TBatchResult> {
  const telemetry = sortTelemetry(batch.telemetry);
  const status = sortStatus(batch.status);
  const telemetryPart = telemetryCtes(telemetry);
  const parts = [telemetryPart, statusCte(status), devicesCte(telemetry, status), ingestStatsCte(batch.rejected, Date.now())].filter(
    (p): p is SQL => p !== null,
  );
  if (parts.length === 0) return { inserted: 0, duplicates: 0 };
  // Unreferenced data-modifying CTEs still run to completion (PostgreSQL "WITH Queries", 7.8.4).
  const inserted = telemetryPart ? sql`(select count(*) from ins)::int` : sql`0`;
  const res = await db.execute(sql`with ${sql.join(parts, sql`, `)} select ${inserted} as n`);
  const n = Number(rowsOf<{ n: number }>(res)[0].n);
  return { inserted: n, duplicates: batch.telemetry.length - n };
}
