/**
 * The telemetry part of the ingest batch statement (write.ts): CTEs that insert the raw points, their key as its
 * `telemetry_keys` id resolved before the statement (key-ids.ts), ON CONFLICT DO NOTHING on (device_id, key_id, ts),
 * and, from exactly the rows inserted (`ins`, its RETURNING), add the 1-min and 1-h
 * rollup buckets and move telemetry_latest forward (in the order of latest-order.ts). The rows never travel back to
 * Node: PostgreSQL aggregates them, so a 5,000-point batch costs no per-row JavaScript. Sums are added in numeric
 * (db/exact-sum.ts), so no finite value can make the statement overflow. Rollups and latest keep the key's text:
 * the batch's (id, key) pairs travel beside the rows and the inserted rows are joined to them.
 */
import { sql, type SQL } from 'drizzle-orm';
import { ROLLUP_BUCKETS_MS } from '@tessera/contracts';
import { exactSum } from '../../db/exact-sum.js';
import type { TTelemetryRowIn } from './rows.js';
import { numberColumn, textColumn } from './write-arrays.js';

/** The rollup sums of the inserted rows, in numeric (a float8 sum of finite doubles can overflow). */
const [SUM1, SUM2, SUM3] = ['v1', 'v2', 'v3'].map((v) => exactSum(sql.raw(v)));

/** The rollup bucket sizes as a VALUES list (constants from contracts, not user input). */
const BUCKET_SIZES = sql.raw(ROLLUP_BUCKETS_MS.map((ms) => `(${ms}::bigint)`).join(', '));

/** The parameters of {@link TELEMETRY_CTES}, by placeholder name. */
export type TTelemetryParams = Record<'t_device' | 't_key_id' | 't_ts' | 't_recv' | 't_v1' | 't_v2' | 't_v3' | 'k_id' | 'k_key', string>;

/**
 * The values of {@link TELEMETRY_CTES}' placeholders for `rows` (sorted by (device, key id, ts), no repeats — see
 * write-sort.ts), `keyIds` holding every row's key id (key-ids.ts): each column one array literal (write-arrays.ts),
 * and the batch's distinct keys with their ids.
 * @throws Error when a row's key has no id in `keyIds` (a caller's bug).
 */
export function telemetryParams(rows: readonly TTelemetryRowIn[], keyIds: ReadonlyMap<string, number>): TTelemetryParams {
  const n = rows.length;
  const keys = new Map<string, number>();
  const [device, keyId, ts, recv, v1, v2, v3] = [
    new Array<number>(n),
    new Array<number>(n),
    new Array<number>(n),
    new Array<number>(n),
    new Array<number | null>(n),
    new Array<number | null>(n),
    new Array<number | null>(n),
  ];
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    device[i] = r.deviceId;
    let id = keys.get(r.key);
    if (id === undefined) {
      id = keyIds.get(r.key);
      if (id === undefined) throw new Error(`telemetry key ${JSON.stringify(r.key)} has no id`);
      keys.set(r.key, id);
    }
    keyId[i] = id;
    ts[i] = r.ts;
    recv[i] = r.svcRecvTs;
    v1[i] = r.v1;
    v2[i] = r.v2;
    v3[i] = r.v3;
  }
  return {
    t_device: numberColumn(device),
    t_key_id: numberColumn(keyId),
    t_ts: numberColumn(ts),
    t_recv: numberColumn(recv),
    t_v1: numberColumn(v1),
    t_v2: numberColumn(v2),
    t_v3: numberColumn(v3),
    k_id: numberColumn([...keys.values()]),
    k_key: textColumn([...keys.keys()]),
  };
}

const p = (name: keyof TTelemetryParams): SQL => sql`${sql.placeholder(name)}::text`;

/**
 * CTEs `new_rows`, `ins`, `rolled` and `newest` storing the rows of {@link telemetryParams} with their rollups and
 * latest; `ins` yields the raw rows that were new (resends are absorbed by the primary key and feed nothing), with
 * their key's text. The same text for every batch, so PostgreSQL can keep it prepared (write.ts).
 */
export const TELEMETRY_CTES: SQL = sql`new_rows as (
      insert into telemetry (ts, svc_recv_ts, v1, v2, v3, device_id, key_id)
      select u.ts, u.recv, u.v1, u.v2, u.v3, u.device_id, u.key_id
      from unnest(${p('t_device')}::int[], ${p('t_key_id')}::int[], ${p('t_ts')}::bigint[], ${p('t_recv')}::bigint[],
        ${p('t_v1')}::float8[], ${p('t_v2')}::float8[], ${p('t_v3')}::float8[]) as u(device_id, key_id, ts, recv, v1, v2, v3)
      on conflict (device_id, key_id, ts) do nothing
      returning device_id, key_id, ts, svc_recv_ts, v1, v2, v3
    ), ins as (
      select n.device_id, k.key, n.ts, n.svc_recv_ts, n.v1, n.v2, n.v3
      from new_rows n join unnest(${p('k_id')}::int[], ${p('k_key')}::text[]) as k(id, key) on k.id = n.key_id
    ), rolled as (
      insert into telemetry_rollup (device_id, key, bucket_ms, bucket_ts, count, v1_min, v1_max, v1_sum, v2_min, v2_max,
        v2_sum, v3_min, v3_max, v3_sum, first_ts, first_v1, last_ts, last_v1)
      select device_id, key, s.ms, (ts / s.ms) * s.ms, count(*), min(v1), max(v1), ${SUM1}, min(v2), max(v2), ${SUM2},
        min(v3), max(v3), ${SUM3}, min(ts), (array_agg(v1 order by ts))[1], max(ts), (array_agg(v1 order by ts desc))[1]
      from ins cross join (values ${BUCKET_SIZES}) as s(ms)
      group by 1, 2, 3, 4
      -- the rollup's key order, so concurrent batches lock buckets in the same order (no deadlocks)
      order by 1, 2, 3, 4
      on conflict (device_id, key, bucket_ms, bucket_ts) do update set
        count = telemetry_rollup.count + excluded.count,
        v1_min = least(telemetry_rollup.v1_min, excluded.v1_min), v1_max = greatest(telemetry_rollup.v1_max, excluded.v1_max),
        v1_sum = coalesce(telemetry_rollup.v1_sum + excluded.v1_sum, telemetry_rollup.v1_sum, excluded.v1_sum),
        v2_min = least(telemetry_rollup.v2_min, excluded.v2_min), v2_max = greatest(telemetry_rollup.v2_max, excluded.v2_max),
        v2_sum = coalesce(telemetry_rollup.v2_sum + excluded.v2_sum, telemetry_rollup.v2_sum, excluded.v2_sum),
        v3_min = least(telemetry_rollup.v3_min, excluded.v3_min), v3_max = greatest(telemetry_rollup.v3_max, excluded.v3_max),
        v3_sum = coalesce(telemetry_rollup.v3_sum + excluded.v3_sum, telemetry_rollup.v3_sum, excluded.v3_sum),
        first_ts = least(telemetry_rollup.first_ts, excluded.first_ts),
        first_v1 = case when excluded.first_ts < telemetry_rollup.first_ts then excluded.first_v1 else telemetry_rollup.first_v1 end,
        last_ts = greatest(telemetry_rollup.last_ts, excluded.last_ts),
        last_v1 = case when excluded.last_ts > telemetry_rollup.last_ts then excluded.last_v1 else telemetry_rollup.last_v1 end
    ), newest as (
      -- latest-order.ts: ranked by ts capped at the receive time, then ts, so a point ahead of its arrival cannot
      -- hide the points after it
      insert into telemetry_latest (device_id, key, ts, svc_recv_ts, v1, v2, v3)
      select distinct on (device_id, key) device_id, key, ts, svc_recv_ts, v1, v2, v3 from ins
      order by device_id, key, least(ts, svc_recv_ts) desc, ts desc
      on conflict (device_id, key) do update set ts = excluded.ts, svc_recv_ts = excluded.svc_recv_ts,
        v1 = excluded.v1, v2 = excluded.v2, v3 = excluded.v3, value = null
      where (least(excluded.ts, excluded.svc_recv_ts), excluded.ts)
        >= (least(telemetry_latest.ts, telemetry_latest.svc_recv_ts), telemetry_latest.ts)
    )`;
