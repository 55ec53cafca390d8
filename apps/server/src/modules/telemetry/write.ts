/**
 * Writes one ingest batch as ONE statement — so one round trip, its own transaction (autocommit), and row locks held
 * only while PostgreSQL runs it and flushes its commit, never across a round trip to Node: raw telemetry (the key as
 * its telemetry_keys id, resolved before the statement — key-ids.ts; ON CONFLICT DO NOTHING on (device_id, key_id,
 * ts)), rollups of the newly inserted rows only (1 min and 1 h buckets,
 * ROLLUP_BUCKETS_MS), telemetry_latest and status words (device_status + devices.status_value/status_ts), each moved
 * forward only by a point that ranks after the one held (latest-order.ts: ts capped at the receive time),
 * devices.last_seen_at/first_seen_at, and rejected-point counters (device_ingest_stats). Either all of it commits or
 * none of it. Every part is a data-modifying CTE (write-telemetry.ts, write-sql.ts) taking whole columns as arrays
 * through `unnest`, so a batch costs one statement whatever its size (and its text is the same for every batch of a
 * shape, so PostgreSQL keeps it prepared); PostgreSQL aggregates the rollups and latest
 * from the inserted rows. The CTEs share one snapshot: none sees another's changes, and none needs to (each table is
 * changed by one CTE; write-sql.ts says why the status probe is unaffected). Rows are sorted by primary key (and the
 * device rows locked in id order) so that concurrent batches lock in the same order (no deadlocks).
 */
import { type Placeholder, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from '../../db/client.js';
import { DEVICES_CTE, devicesParams, INGEST_STATS_CTE, ingestStatsParams, STATUS_CTE, statusParams } from './write-sql.js';
import { keyIdsOf } from './key-ids.js';
import type { LastSeenWrites } from './last-seen-writes.js';
import { TELEMETRY_CTES, telemetryParams } from './write-telemetry.js';
import { VALUES_CTES, valuesParams } from './write-values.js';
import { sortStatus, sortTelemetry } from './write-sort.js';
import type { TBatchResult, TIngestBatch } from './rows.js';

export type { TBatchResult, TIngestBatch, TRejectedIn, TStatusRowIn, TTelemetryRowIn } from './rows.js';

/** The statement's parts, in statement order; a batch uses those it has rows for (bit i of its shape: part i). */
const PARTS = [TELEMETRY_CTES, STATUS_CTE, DEVICES_CTE, INGEST_STATS_CTE, VALUES_CTES];

/** One rendered statement: its text, the placeholder name of each `$n`, and its prepared statement's name. */
interface TStatement {
  name: string;
  text: string;
  params: string[];
}

/** Rendered statements by shape (at most 2^5): drizzle builds and renders each once, not once per batch. */
const statements = new Map<number, TStatement>();
const dialect = new PgDialect();

function statementOf(shape: number): TStatement {
  let st = statements.get(shape);
  if (!st) {
    const parts = PARTS.filter((_, i) => shape & (1 << i));
    // Unreferenced data-modifying CTEs still run to completion (PostgreSQL "WITH Queries", 7.8.4).
    const numeric = shape & 1 ? sql`(select count(*) from ins)::int` : sql`0`;
    const inserted = shape & 16 ? sql`${numeric} + (select count(*) from vins)::int` : numeric;
    const q = dialect.sqlToQuery(sql`with ${sql.join(parts, sql`, `)} select ${inserted} as n`);
    st = { name: `tessera_ingest_batch_${shape}`, text: q.sql, params: q.params.map((x) => (x as Placeholder).name) };
    statements.set(shape, st);
  }
  return st;
}

/** The drivers' own query methods (drizzle's `$client`): a pg Pool, or PGlite. */
interface TRawClient {
  query(textOrConfig: string | { name: string; text: string; values: unknown[] }, values?: unknown[]): Promise<{ rows: { n: number }[] }>;
}

/** What the ingest pipeline keeps across batches for the writer. */
export interface TIngestWriteOptions {
  /**
   * The heard-from times this process committed: a device's row is written only when its `last_seen_at` is due
   * (last-seen-writes.ts); without it, every device of the batch is written.
   */
  lastSeen?: LastSeenWrites;
}

/**
 * Writes `batch` atomically in one statement, through the driver itself (pg: a named statement, so each connection
 * parses and plans it once; PGlite: the same text each time). Drizzle renders each statement's text once.
 * @throws the database error when the statement fails (nothing of the batch is stored).
 */
export async function writeIngestBatch(db: Db, batch: TIngestBatch, opts: TIngestWriteOptions = {}): Promise<TBatchResult> {
  // ids of the numeric points' keys (the raw table's); a point of a non-numeric key (a `value`) keeps its text
  const numericKeys = new Set<string>();
  for (const r of batch.telemetry) if (r.value === undefined) numericKeys.add(r.key);
  const keyIds = numericKeys.size > 0 ? await keyIdsOf(db, numericKeys) : new Map<string, number>();
  const points = sortTelemetry(batch.telemetry, keyIds);
  const status = sortStatus(batch.status);
  // Points of non-numeric keys (a `value`) go to telemetry_values; a batch without any keeps its array as it is.
  let telemetry = points;
  let valued: typeof points = [];
  if (points.some((r) => r.value !== undefined)) {
    telemetry = points.filter((r) => r.value === undefined);
    valued = points.filter((r) => r.value !== undefined);
  }
  // Devices whose row the statement writes, with their newest receive time (told to opts.lastSeen once committed).
  const written = new Map<number, number>();
  const parts = [
    telemetry.length > 0 ? telemetryParams(telemetry, keyIds) : null,
    statusParams(status),
    devicesParams(points, status, opts.lastSeen, written),
    ingestStatsParams(batch.rejected, Date.now()),
    valued.length > 0 ? valuesParams(valued) : null,
  ];
  let shape = 0;
  const byName: Record<string, string> = {};
  parts.forEach((part, i) => {
    if (!part) return;
    shape |= 1 << i;
    Object.assign(byName, part);
  });
  if (shape === 0) return { inserted: 0, duplicates: 0 };
  const st = statementOf(shape);
  const values = st.params.map((name) => byName[name]);
  const client = (db as unknown as { $client: TRawClient }).$client;
  const res =
    client instanceof pg.Pool ? await client.query({ name: st.name, text: st.text, values }) : await client.query(st.text, values);
  const n = Number(res.rows[0].n);
  if (opts.lastSeen) for (const [deviceId, lastSeenMs] of written) opts.lastSeen.committed(deviceId, lastSeenMs);
  return { inserted: n, duplicates: batch.telemetry.length - n };
}
