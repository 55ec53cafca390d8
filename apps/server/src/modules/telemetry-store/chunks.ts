/**
 * Writing cold raw telemetry: the points of one UTC day of a source table (a partition waiting for compression, or
 * `telemetry_default`'s late points) merged into `telemetry_chunk`, one row per (device, key, day) — the layout of
 * db/schema-telemetry.ts `telemetryChunk`, chosen in docs/decisions/telemetry-storage.md. The encoding and the
 * decoding (`telemetry_chunk_points()`, migration 0019) are both SQL, so they agree to the bit.
 */
import { DAY_MS, ROLLUP_BUCKETS_MS } from '@tessera/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { exactSum } from '../../db/exact-sum.js';

/** What {@link mergeDayIntoChunks} did: points taken from the source, and those a chunk already held. */
export interface TMergeResult {
  points: number;
  duplicates: number;
}

/** How the source's rows of the day are taken: deleted (the table stays), or read (the caller drops the table). */
export type TConsume = 'delete' | 'read';

/**
 * How the source names a point's key: `ids` — `key_id`, a `telemetry_keys` id (the hot tables' layout); `text` — the
 * key itself (the tables of the earlier layout, `telemetry_text_keys*`, kept until compressed; migration 0032).
 */
export type TSourceKeys = 'ids' | 'text';

/** A series of a source table: its device and its key as the source names it (a key id, or the key's text). */
export interface TSeries {
  deviceId: number;
  key: number | string;
}

/** The series of a source with `after` < (device, key) ≤ `through` in its primary key's order (`after` null: from the first). */
export interface TSeriesRange {
  after: TSeries | null;
  through: TSeries;
}

/** `(device_id, key column) <op> (series)` for a source whose keys are `keys`. */
export function seriesCompare(keys: TSourceKeys, op: '>' | '<=' | '>=', s: TSeries, alias?: string): SQL {
  const pre = alias ? `${alias}.` : '';
  const key = keys === 'ids' ? sql`${s.key}::integer` : sql`${s.key}::text`;
  return sql`(${sql.raw(`${pre}device_id, ${pre}${keys === 'ids' ? 'key_id' : 'key'}`)}) ${sql.raw(op)} (${s.deviceId}::integer, ${key})`;
}

/** The rollup bucket sizes as a VALUES list (constants from contracts). */
const BUCKET_SIZES = sql.raw(ROLLUP_BUCKETS_MS.map((ms) => `(${ms}::bigint)`).join(', '));
const [SUM1, SUM2, SUM3] = ['v1', 'v2', 'v3'].map((v) => exactSum(sql.raw(v)));
const INT4 = sql.raw('between -2147483648 and 2147483647');

/**
 * Merges the rows of `source` with `dayStart ≤ ts < dayStart + 1 day` into that day's chunks, in one statement:
 * a chunk that exists is decoded and its points kept (stored first, they win over a resent point of the same ts);
 * the union is encoded again. A point of the source that a chunk already held was counted a second time in the
 * rollups by ingest (its hot partition was gone, so the primary key could not absorb it): its count and sums are
 * taken off the 1-min and 1-h buckets again, so the point counts once (at-least-once delivery, exactly-once
 * storage). Run inside the caller's transaction; `consume` 'delete' removes the rows from the source. Chunks name
 * the key by its text whatever `keys` says of the source's. `series` limits the merge to a range of the source's
 * series (a slice, compress.ts): a series' day is always merged whole.
 */
export async function mergeDayIntoChunks(
  db: Db,
  source: string,
  dayStart: number,
  consume: TConsume,
  keys: TSourceKeys = 'ids',
  series?: TSeriesRange,
): Promise<TMergeResult> {
  const src = sql.identifier(source);
  const from = sql.raw(String(dayStart));
  const to = sql.raw(String(dayStart + DAY_MS));
  const cols = sql.raw(`device_id, ${keys === 'ids' ? 'key_id' : 'key'}, ts, svc_recv_ts, v1, v2, v3`);
  const inSlice = series
    ? sql` and ${seriesCompare(keys, '<=', series.through)}${series.after ? sql` and ${seriesCompare(keys, '>', series.after)}` : sql``}`
    : sql``;
  const take: SQL =
    consume === 'delete'
      ? sql`delete from ${src} where ts >= ${from} and ts < ${to}${inSlice} returning ${cols}`
      : sql`select ${cols} from ${src} where ts >= ${from} and ts < ${to}${inSlice}`;
  const named: SQL =
    keys === 'ids'
      ? sql`taken as (${take}), src as (select t.device_id, k.key, t.ts, t.svc_recv_ts, t.v1, t.v2, t.v3
          from taken t join telemetry_keys k on k.id = t.key_id)`
      : sql`src as (${take})`;
  const rows = rowsOf<{ points: number; duplicates: number }>(
    await db.execute(sql`with ${named},
      series as (select distinct device_id, key from src),
      held as (
        select s.device_id, s.key, p.ts, p.svc_recv_ts, p.v1, p.v2, p.v3
        from series s cross join lateral telemetry_chunk_points(s.device_id, s.key, ${from}, ${to} - 1) p
      ),
      dups as (select s.* from src s join held h using (device_id, key, ts)),
      merged as (
        select * from held
        union all select * from src s where not exists (select 1 from held h where h.device_id = s.device_id and h.key = s.key and h.ts = s.ts)
      ),
      laid as (
        select *, (last_ts - first_ts)::float8 / greatest(n - 1, 1) as step from (
          select device_id, key, ts, svc_recv_ts, v1, v2, v3,
            row_number() over (partition by device_id, key order by ts) as i, count(*) over w as n,
            min(ts) over w as first_ts, max(ts) over w as last_ts, bool_and(svc_recv_ts - ts ${INT4}) over w as lags_fit
          from merged window w as (partition by device_id, key)
        ) as o
      ),
      chunks as (
        insert into telemetry_chunk (device_id, key, day_start, n, ts_first, ts_step, ts_steps, recv_lags, recv_lags_wide, v1, v2, v3)
        select device_id, key, ${from}, n, first_ts, step,
          array_agg((ts - (first_ts + round((i - 1) * step)::bigint))::int order by ts),
          case when lags_fit then array_agg(case when lags_fit then (svc_recv_ts - ts)::int end order by ts) end,
          case when not lags_fit then array_agg(svc_recv_ts - ts order by ts) end,
          case when count(v1) > 0 then array_agg(v1 order by ts) end,
          case when count(v2) > 0 then array_agg(v2 order by ts) end,
          case when count(v3) > 0 then array_agg(v3 order by ts) end
        from laid group by device_id, key, n, first_ts, step, lags_fit
        order by device_id, key
        on conflict (device_id, key, day_start) do update set n = excluded.n, ts_first = excluded.ts_first,
          ts_step = excluded.ts_step, ts_steps = excluded.ts_steps, recv_lags = excluded.recv_lags,
          recv_lags_wide = excluded.recv_lags_wide, v1 = excluded.v1, v2 = excluded.v2, v3 = excluded.v3
        returning 1
      ),
      uncounted as (
        update telemetry_rollup r set count = r.count - d.n,
          v1_sum = coalesce(r.v1_sum - d.s1, r.v1_sum), v2_sum = coalesce(r.v2_sum - d.s2, r.v2_sum),
          v3_sum = coalesce(r.v3_sum - d.s3, r.v3_sum)
        from (
          select device_id, key, s.ms, (ts / s.ms) * s.ms as bucket_ts, count(*)::int as n, ${SUM1} as s1, ${SUM2} as s2, ${SUM3} as s3
          -- in the writer's order (device, key, ts): the float8 part of each sum then adds exactly what the writer
          -- added for these rows, and the numeric subtraction restores the bucket to the bit
          from (select * from dups order by device_id, key, ts) as dups cross join (values ${BUCKET_SIZES}) as s(ms)
          group by 1, 2, 3, 4
        ) as d
        where r.device_id = d.device_id and r.key = d.key and r.bucket_ms = d.ms and r.bucket_ts = d.bucket_ts
        returning 1
      )
      select (select count(*) from src)::int as points, (select count(*) from dups)::int as duplicates,
        (select count(*) from chunks)::int as chunks, (select count(*) from uncounted)::int as uncounted`),
  );
  return { points: rows[0].points, duplicates: rows[0].duplicates };
}
