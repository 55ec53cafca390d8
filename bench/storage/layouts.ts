/**
 * The storage layouts the bench compares, each filled from the staging table (signals.ts) and read back for one
 * (device, key, range) as rows `{ ts, svc_recv_ts, v1, v2, v3 }` in ts order (the raw-rows API's shape).
 *
 * - `today`: the hot rows before key ids — the columns and primary key of db/schema-telemetry.ts's `telemetry` before
 *   migration 0032 (key as text), unpartitioned.
 * - `hot`: the hot rows of db/schema-telemetry.ts's `telemetry` since migration 0032 — an integer key id instead of the
 *   text, columns ordered so nothing is padded (ts, svc_recv_ts, v1..v3, device_id, key_id), primary key (device_id,
 *   key_id, ts), partitioned by UTC day.
 * - `cold chunks`: one row per (device, key, UTC day): the count, `ts` as int4 steps ({@link TTsEncoding}), the
 *   receive lags (`svc_recv_ts − ts`, int4), and the values as float8 arrays as they are, each array a column
 *   compressed by TOAST with `lz4` or `pglz`.
 */
import type pg from 'pg';
import { DAY_MS } from './signals.js';

/** One raw row as the read paths answer it (epoch ms; absent values null). */
export interface TRawRow {
  ts: string;
  svc_recv_ts: string;
  v1: number | null;
  v2: number | null;
  v3: number | null;
}

/** A query's text and parameters. */
export interface TQuery {
  text: string;
  values: unknown[];
}

/** A layout under measurement. */
export interface TLayout {
  name: string;
  /** The relation whose size (with its partitions, indexes and TOAST) is the layout's. */
  relation: string;
  create(pool: pg.Pool): Promise<void>;
  /** Stores day `dayStart` (epoch ms, midnight UTC) of the staging rows. */
  loadDay(pool: pg.Pool, dayStart: number): Promise<void>;
  /** The query answering the rows of one series with `from ≤ ts ≤ to`, in ts order ({@link TRawRow}). */
  read(deviceId: number, key: { id: number; name: string }, from: number, to: number): TQuery;
}

const today: TLayout = {
  name: "today's layout: text keys (telemetry before 0032)",
  relation: 'today_telemetry',
  async create(pool) {
    await pool.query(`create table today_telemetry (device_id integer not null, key text not null, ts bigint not null,
      svc_recv_ts bigint not null, v1 double precision, v2 double precision, v3 double precision,
      constraint today_telemetry_pk primary key (device_id, key, ts))`);
  },
  async loadDay(pool, dayStart) {
    await pool.query(
      `insert into today_telemetry select device_id, key, ts, svc_recv_ts, v1, null, null from staging
       where ts >= $1 and ts < $2 order by ts, device_id, key_id`,
      [dayStart, dayStart + DAY_MS],
    );
  },
  read(deviceId, key, from, to) {
    return {
      text: `select ts, svc_recv_ts, v1, v2, v3 from today_telemetry where device_id = $1 and key = $2 and ts between $3 and $4
       order by ts`,
      values: [deviceId, key.name, from, to],
    };
  },
};

const hot: TLayout = {
  name: 'compact hot rows: key ids (telemetry since 0032)',
  relation: 'hot_telemetry',
  async create(pool) {
    await pool.query(`create table hot_telemetry (ts bigint not null, svc_recv_ts bigint not null, v1 double precision,
      v2 double precision, v3 double precision, device_id integer not null, key_id integer not null,
      constraint hot_telemetry_pk primary key (device_id, key_id, ts)) partition by range (ts)`);
  },
  async loadDay(pool, dayStart) {
    await pool.query(
      `create table hot_telemetry_${dayStart} partition of hot_telemetry for values from (${dayStart}) to (${dayStart + DAY_MS})`,
    );
    await pool.query(
      `insert into hot_telemetry select ts, svc_recv_ts, v1, null, null, device_id, key_id from staging
       where ts >= $1 and ts < $2 order by ts, device_id, key_id`,
      [dayStart, dayStart + DAY_MS],
    );
  },
  read(deviceId, key, from, to) {
    return {
      text: `select ts, svc_recv_ts, v1, v2, v3 from hot_telemetry
       where device_id = $1 and key_id = $2 and ts between $3 and $4 order by ts`,
      values: [deviceId, key.id, from, to],
    };
  },
};

/**
 * How a chunk stores `ts`: `deltas` — each step from the previous point (int4; read back with a running sum, which
 * needs a window and a sort); `grid` — the residual from a straight line through the chunk's first and last point
 * (`ts_first + round((i − 1) × ts_step) + r`): as small as deltas for a periodic sensor, read back without a sort.
 */
type TTsEncoding = 'deltas' | 'grid';

/** A chunk layout compressed with `method`, `ts` stored by `encoding`. */
function cold(method: 'lz4' | 'pglz', encoding: TTsEncoding): TLayout {
  const table = `chunk_${method}_${encoding}`;
  const c = `compression ${method}`;
  const step =
    encoding === 'deltas'
      ? 'ts - lag(ts, 1, $1::bigint) over w'
      : 'ts - (first_value(ts) over w + round((row_number() over w - 1) * ((max(ts) over w - min(ts) over w)::float8 / greatest(count(*) over w - 1, 1))))::bigint';
  const decodeTs =
    encoding === 'deltas'
      ? 'c.day_start + sum(u.step) over (partition by c.day_start order by u.i)'
      : 'c.ts_first + round((u.i - 1) * c.ts_step)::bigint + u.step';
  return {
    name: `cold chunks, ${method}, ts as ${encoding === 'deltas' ? 'deltas' : 'grid residuals'}`,
    relation: table,
    async create(pool) {
      await pool.query(`create table ${table} (day_start bigint not null, ts_first bigint not null, ts_step float8 not null,
        device_id integer not null, n integer not null, key_id integer not null,
        ts_steps integer[] ${c} not null, recv_lags integer[] ${c} not null,
        v1 double precision[] ${c}, v2 double precision[] ${c}, v3 double precision[] ${c},
        constraint ${table}_pk primary key (device_id, key_id, day_start))`);
    },
    async loadDay(pool, dayStart) {
      await pool.query(
        `insert into ${table} (day_start, ts_first, ts_step, device_id, n, key_id, ts_steps, recv_lags, v1, v2, v3)
         select $1::bigint, min(ts), (max(ts) - min(ts))::float8 / greatest(count(*) - 1, 1), device_id, count(*), key_id,
           array_agg(step::int order by ts), array_agg((svc_recv_ts - ts)::int order by ts),
           case when count(v1) > 0 then array_agg(v1 order by ts) end, null, null
         from (select device_id, key_id, ts, svc_recv_ts, v1, ${step} as step from staging where ts >= $1 and ts < $2
               window w as (partition by device_id, key_id order by ts rows between unbounded preceding and unbounded following)) as s
         group by device_id, key_id order by device_id, key_id`,
        [dayStart, dayStart + DAY_MS],
      );
    },
    read(deviceId, key, from, to) {
      return {
        text: `select ts, ts + lag as svc_recv_ts, v1, v2, v3 from (
           select ${decodeTs} as ts, u.lag, u.v1, u.v2, u.v3, c.day_start, u.i
           from ${table} c cross join lateral unnest(c.ts_steps, c.recv_lags, c.v1, c.v2, c.v3)
             with ordinality as u(step, lag, v1, v2, v3, i)
           where c.device_id = $1 and c.key_id = $2 and c.day_start > $3::bigint - ${DAY_MS} and c.day_start <= $4::bigint
         ) as p where ts between $3 and $4 order by day_start, i`,
        values: [deviceId, key.id, from, to],
      };
    },
  };
}

/** Bytes of each array column of `table` per key (pg_column_size: compressed, as stored), summed over chunks. */
export async function columnBytes(pool: pg.Pool, table: string): Promise<{ key_id: number; ts: number; lags: number; values: number }[]> {
  const r = await pool.query(
    `select key_id, sum(pg_column_size(ts_steps))::bigint as ts, sum(pg_column_size(recv_lags))::bigint as lags,
       sum(coalesce(pg_column_size(v1), 0) + coalesce(pg_column_size(v2), 0) + coalesce(pg_column_size(v3), 0))::bigint as values
     from ${table} group by key_id order by key_id`,
  );
  return r.rows.map((x) => ({ key_id: x.key_id, ts: Number(x.ts), lags: Number(x.lags), values: Number(x.values) }));
}

/** The layouts in the order the bench reports them; `hasLz4` false leaves out the lz4 ones. */
export function layouts(hasLz4: boolean): TLayout[] {
  return [today, hot, ...(hasLz4 ? [cold('lz4', 'deltas'), cold('lz4', 'grid')] : []), cold('pglz', 'grid')];
}

/** Bytes on disk of `relation`: its partitions, their indexes and TOAST (pg_total_relation_size of each leaf). */
export async function bytesOf(pool: pg.Pool, relation: string): Promise<number> {
  const r = await pool.query(
    `select coalesce(sum(pg_total_relation_size(relid)), 0)::bigint as b from pg_partition_tree($1::regclass) where isleaf
     union all select pg_total_relation_size($1::regclass) where (select relkind from pg_class where oid = $1::regclass) <> 'p'`,
    [relation],
  );
  return r.rows.reduce((sum, row) => sum + Number(row.b), 0);
}
