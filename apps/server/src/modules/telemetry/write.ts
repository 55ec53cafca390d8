/**
 * Writes one ingest batch in ONE transaction — raw telemetry (ON CONFLICT DO NOTHING on (device_id, key, ts)),
 * rollups of the newly inserted rows only (1 min and 1 h buckets, ROLLUP_BUCKETS_MS), telemetry_latest and status
 * words (device_status + devices.status_value/status_ts), each moved forward only by a point that ranks after the
 * one held (latest-order.ts: ts capped at the receive time), devices.last_seen_at, and
 * rejected-point counters (device_ingest_stats). Either all of it commits or none of it. Every statement takes
 * whole columns as arrays through `unnest`, so a batch costs a handful of statements whatever its size; the raw
 * rows, their rollups and latest are one statement (write-telemetry.ts) aggregated inside the database. Rows are
 * sorted by primary key so that concurrent batches lock in the same order (no deadlocks).
 */
import type { Db } from '../../db/client.js';
import { insertStatus, touchLastSeen, updateDeviceStatus, upsertIngestStats } from './write-sql.js';
import { insertTelemetry } from './write-telemetry.js';
import { sortStatus, sortTelemetry } from './write-sort.js';
import type { TBatchResult, TIngestBatch } from './rows.js';

export type { TBatchResult, TIngestBatch, TRejectedIn, TStatusRowIn, TTelemetryRowIn } from './rows.js';

/**
 * Writes `batch` atomically.
 * @throws the database error when the transaction fails (nothing of the batch is stored).
 */
export async function writeIngestBatch(db: Db, batch: TIngestBatch): Promise<TBatchResult> {
  const telemetry = sortTelemetry(batch.telemetry);
  const status = sortStatus(batch.status);
  if (telemetry.length === 0 && status.length === 0 && batch.rejected.length === 0) return { inserted: 0, duplicates: 0 };
  const inserted = await db.transaction(async (tx) => {
    const fresh = await insertTelemetry(tx, telemetry);
    await insertStatus(tx, status);
    await updateDeviceStatus(tx, status);
    await touchLastSeen(tx, telemetry, status);
    await upsertIngestStats(tx, batch.rejected, Date.now());
    return fresh;
  });
  return { inserted, duplicates: batch.telemetry.length - inserted };
}
