/**
 * The rows of a telemetry export (docs/downloads.md "What a file holds"): raw points read in keyset batches (the next
 * one read while the current one is written) over the
 * telemetry primary key (device, key, ts) — one statement per batch, no transaction held open, so memory stays flat
 * and ingest is never blocked behind an export, on PGlite as on PostgreSQL — or rollup buckets read a window of
 * buckets at a time. Each yields CSV records in the column order of EXPORT_RAW_COLUMNS / EXPORT_BUCKET_COLUMNS.
 */
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { TDownloadJobSpec, TTelemetryValue } from '@tessera/contracts';
import { rowsOf, type Db } from '../../db/client.js';
import { planFixedBuckets } from '../telemetry/buckets.js';
import { bucketSql, numOrNull, type TSlotRow } from '../telemetry/timeseries.js';
import { csvValue } from '../telemetry/download.js';
import { rawPoints, rawPointsText, valuePoints } from '../telemetry-store/raw-points.js';

/** A device of an export. */
export interface TExportDevice {
  id: number;
  tangramId: string;
}

/** Raw rows per read. */
export const EXPORT_BATCH_ROWS = 20_000;
/** Raw rows per COPY on PostgreSQL (streamed, never held: a batch bounds how long one statement runs). */
export const EXPORT_COPY_ROWS = 200_000;
/** Points per piece of CSV text (≈ 100 KB, below V8's 128 KB large-object size). */
const LINES_PER_PIECE = 900;
/** Buckets per read of an aggregated export. */
const BUCKETS_PER_READ = 5_000;

type TTextPiece = { rows: number; last_ts: number | string; text: string };

/**
 * The number of CSV records `spec` makes for `device` over `keys`: raw points in the range, or buckets holding data.
 * Used for the progress bar (rows done of rows total).
 */
export async function countExportRows(db: Db, spec: TDownloadJobSpec, device: TExportDevice, keys: string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const keyList = sql.join(
    keys.map((k) => sql`${k}`),
    sql`, `,
  );
  if (spec.mode === 'raw') {
    const [row] = rowsOf<{ n: number | string }>(
      await db.execute(
        sql`select count(*) as n from (values ${sql.join(
          keys.map((k) => sql`(${k})`),
          sql`, `,
        )}) as k(key) cross join lateral ${rawPoints(device.id, sql`k.key`, spec.start_ts, spec.end_ts)} as p`,
      ),
    );
    const [values] = rowsOf<{ n: number | string }>(
      await db.execute(sql`select count(*) as n from telemetry_values
        where device_id = ${device.id} and key in (${keyList}) and ts between ${spec.start_ts} and ${spec.end_ts}`),
    );
    return Number(row?.n ?? 0) + Number(values?.n ?? 0);
  }
  const plan = planFixedBuckets(spec.start_ts, spec.end_ts, spec.bucket_ms);
  const b = sql`${plan.bucketMs}::bigint`;
  const [row] = rowsOf<{ n: number | string }>(
    await db.execute(sql`select count(*) as n from (
        select 1 from telemetry_rollup
        where device_id = ${device.id} and key in (${keyList}) and bucket_ms = ${plan.sourceBucketMs}
          and bucket_ts between ${plan.from} and ${plan.to}
        group by key, bucket_ts / ${b}) buckets`),
  );
  return Number(row?.n ?? 0);
}

/** A piece of the CSV: `rows` whole records (each ending in a newline) — as text, or as bytes from COPY. */
export interface TCsvChunk {
  rows: number;
  text: string | Buffer;
}

/**
 * The CSV records of `device` for `spec` over `keys` (key by key, oldest first), one chunk per read, without the header.
 * Raw: tangram_id, key, ts (ISO 8601 UTC), ts_ms, svc_recv_ts, v1, v2, v3, value.
 * Bucketed: tangram_id, key, bucket (ISO), bucket_ts, bucket_ms, fn, v1, v2, v3.
 */
export async function* exportChunks(
  db: Db,
  spec: TDownloadJobSpec,
  device: TExportDevice,
  keys: string[],
  opts: { batchRows?: number; pool?: pg.Pool } = {},
): AsyncGenerator<TCsvChunk> {
  for (const key of keys) {
    if (spec.mode !== 'raw') yield* bucketChunks(db, spec, device, key);
    else {
      if (opts.pool) yield* copyChunks(opts.pool, spec, device, key, opts.batchRows ?? EXPORT_COPY_ROWS);
      else yield* rawChunks(db, spec, device, key, opts.batchRows ?? EXPORT_BATCH_ROWS);
      yield* valueChunks(db, spec, device, key, opts.batchRows ?? EXPORT_BATCH_ROWS);
    }
  }
}

/**
 * The points of a non-numeric key (telemetry_values; docs/decisions/telemetry.md "Values that are not numbers") in
 * keyset batches, formatted by papaparse (a string value may need quoting): v1..v3 empty, the value in `value` (a
 * string as it is, a boolean as true/false, JSON compact). A numeric key has none: one empty read.
 */
async function* valueChunks(
  db: Db,
  spec: TDownloadJobSpec,
  device: TExportDevice,
  key: string,
  batchRows: number,
): AsyncGenerator<TCsvChunk> {
  let after = spec.start_ts - 1;
  for (;;) {
    const rows = rowsOf<{ ts: number | string; svc_recv_ts: number | string; value: TTelemetryValue }>(
      await db.execute(sql`select ts, svc_recv_ts, value from ${valuePoints(device.id, key, after + 1, spec.end_ts)} as v
        order by ts limit ${batchRows}`),
    );
    if (rows.length === 0) return;
    const records = rows.map((r) => {
      const ts = Number(r.ts);
      return [device.tangramId, key, new Date(ts).toISOString(), ts, Number(r.svc_recv_ts), '', '', '', csvValue(r.value)];
    });
    yield { rows: rows.length, text: `${Papa.unparse(records, { newline: '\n' })}\n` };
    if (rows.length < batchRows) return;
    after = Number(rows[rows.length - 1].ts);
  }
}

/**
 * The fields of a raw CSV line after `tangram_id,key,` (the export's raw columns), as SQL over a telemetry row: the ISO
 * time, ts, svc_recv_ts, v1..v3 — one definition for both read paths.
 */
const RAW_LINE_FIELDS = `to_char(to_timestamp(ts / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      ',', ts, ',', svc_recv_ts, ',', v1, ',', v2, ',', v3, ','`;

/** The SELECT of one raw line per point (the CSV record without its newline), for the points after `after`. */
function rawLinesSql(
  prefix: string,
  deviceId: number,
  key: string,
  after: number,
  end: number,
  limit: number,
  literal: (s: string) => string,
) {
  return `select concat(${literal(prefix)}::text, ${RAW_LINE_FIELDS})
    from ${rawPointsText(deviceId, literal(key), Math.trunc(after) + 1, end)}
    order by ts limit ${Math.trunc(limit)}`;
}

/**
 * Raw points on PostgreSQL: `COPY (the same lines) TO STDOUT` in keyset batches of `batchRows`, the bytes streamed to
 * the file as the database sends them — no row or string is made in JavaScript, so the server's heap stays flat and
 * the export runs near COPY's own speed. Text format: the lines hold no tab, backslash or newline to escape (every
 * field is CSV-safe, see {@link rawChunks}), so COPY writes them as they are, one per row. The next batch starts after
 * the last ts of this one, read from its last line.
 */
async function* copyChunks(
  pool: pg.Pool,
  spec: TDownloadJobSpec,
  device: TExportDevice,
  key: string,
  batchRows: number,
): AsyncGenerator<TCsvChunk> {
  const prefix = `${device.tangramId},${key},`;
  let after = spec.start_ts - 1;
  for (;;) {
    const client = await pool.connect();
    let rows = 0;
    let tail: Buffer = Buffer.alloc(0);
    let finished = false;
    const stream = client.query(
      copyTo(`copy (${rawLinesSql(prefix, device.id, key, after, spec.end_ts, batchRows, (v) => client.escapeLiteral(v))}) to stdout`),
    );
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        const lines = countNewlines(chunk);
        rows += lines;
        tail = lastBytes(tail, chunk);
        yield { rows: lines, text: chunk };
      }
      finished = true;
    } finally {
      // A consumer that stopped (cancel, a failed file) leaves the COPY mid-way: that connection is not reused.
      if (!finished) stream.destroy();
      client.release(!finished);
    }
    if (rows < batchRows) return;
    after = Number(lastLineTs(tail));
  }
}

function countNewlines(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}

/** The last 256 bytes of `tail` + `chunk` (a whole last line: its fields are far shorter). */
function lastBytes(tail: Buffer, chunk: Buffer): Buffer {
  // copied out of the chunk, so the chunk itself is not kept alive
  if (chunk.length >= 256) return Buffer.from(chunk.subarray(chunk.length - 256));
  const both = Buffer.concat([tail, chunk]);
  return both.subarray(Math.max(0, both.length - 256));
}

/** The ts_ms field (the 4th) of the last line in `tail`. */
function lastLineTs(tail: Buffer): string {
  const text = tail.toString('utf8').replace(/\n$/, '');
  return text.slice(text.lastIndexOf('\n') + 1).split(',')[3] ?? '';
}

/**
 * Raw points, formatted by the database as pieces of CSV text (as COPY … CSV would: every field here is CSV-safe —
 * hex Tangram IDs, keys of [A-Za-z0-9_.-], ISO times, numbers — so none needs quoting; a null value is an empty
 * field). The server receives one string per LINES_PER_PIECE points instead of a row object per point, so
 * PostgreSQL's formatting runs beside it; pieces stay below V8's large-object size, so they die young instead of
 * piling up until a full collection, and the server's memory stays flat however long the export. The next batch is
 * read while this one is written (the keyset only needs this batch's last ts).
 */
async function* rawChunks(
  db: Db,
  spec: TDownloadJobSpec,
  device: TExportDevice,
  key: string,
  batchRows: number,
): AsyncGenerator<TCsvChunk> {
  const prefix = `${device.tangramId},${key},`;
  const read = async (after: number): Promise<TTextPiece[]> =>
    rowsOf<TTextPiece>(
      await db.execute(sql`select count(*)::int as rows, max(ts) as last_ts, string_agg(line, '' order by ts) as text
          from (
            select ts, (row_number() over (order by ts) - 1) / ${LINES_PER_PIECE} as piece,
              concat(${prefix}::text, ${sql.raw(RAW_LINE_FIELDS)}, E'\n') as line
            from (select ts, svc_recv_ts, v1, v2, v3 from ${rawPoints(device.id, key, after + 1, spec.end_ts)}
              order by ts limit ${batchRows}) batch) lines
          group by piece order by piece`),
    );
  let next: Promise<TTextPiece[]> | null = read(spec.start_ts - 1);
  while (next) {
    const pieces: TTextPiece[] = await next;
    const rows = pieces.reduce((n, p) => n + p.rows, 0);
    next = rows === batchRows ? read(Number(pieces[pieces.length - 1].last_ts)) : null;
    // A prefetch left behind by a consumer that stopped must not become an unhandled rejection.
    next?.catch(() => undefined);
    for (const p of pieces) yield { rows: p.rows, text: p.text };
  }
}

/** Rollup buckets, a window of BUCKETS_PER_READ buckets per read, formatted by papaparse. */
async function* bucketChunks(db: Db, spec: TDownloadJobSpec, device: TExportDevice, key: string): AsyncGenerator<TCsvChunk> {
  const windowMs = spec.bucket_ms * BUCKETS_PER_READ;
  for (let from = spec.start_ts; from <= spec.end_ts; from += windowMs) {
    // Windows are whole buckets apart, so no bucket is split between two reads.
    const start = Math.floor(from / spec.bucket_ms) * spec.bucket_ms;
    const end = Math.min(spec.end_ts, start + windowMs - 1);
    const plan = planFixedBuckets(Math.max(start, spec.start_ts), end, spec.bucket_ms);
    const rows = rowsOf<TSlotRow>(await db.execute(bucketSql(device.id, key, spec.fn, plan)));
    if (rows.length > 0) {
      const records = rows.map((r) => {
        const ts = Number(r.b);
        return [
          device.tangramId,
          key,
          new Date(ts).toISOString(),
          ts,
          spec.bucket_ms,
          spec.fn,
          numOrNull(r.x1),
          numOrNull(r.x2),
          numOrNull(r.x3),
        ];
      });
      yield { rows: rows.length, text: `${Papa.unparse(records, { newline: '\n' })}\n` };
    }
    from = start;
  }
}
