/**
 * The part of the ingest batch statement (write.ts) for points of keys whose values are not numbers
 * (docs/decisions/telemetry.md "Values that are not numbers"): CTEs that insert them into telemetry_values (ON
 * CONFLICT DO NOTHING on (device_id, key, ts): a resend is absorbed) and move telemetry_latest forward from exactly
 * the rows inserted, in the order of latest-order.ts, as the numeric part does (write-telemetry.ts). They have no
 * rollups. The rows travel as one JSON text parameter read by `jsonb_to_recordset`: this path is not the numeric
 * one's, and JSON carries the values as they are.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { TTelemetryRowIn } from './rows.js';

/** The parameters of {@link VALUES_CTES}, by placeholder name. */
export type TValuesParams = Record<'tv_rows', string>;

/** The values of {@link VALUES_CTES}' placeholder for `rows` (sorted by (device, key, ts), no repeats; write-sort.ts). */
export function valuesParams(rows: readonly TTelemetryRowIn[]): TValuesParams {
  return {
    tv_rows: JSON.stringify(rows.map((r) => ({ device_id: r.deviceId, key: r.key, ts: r.ts, svc_recv_ts: r.svcRecvTs, value: r.value }))),
  };
}

/**
 * CTEs `vins` (the new rows of telemetry_values) and `vnewest` (their latest, v1..v3 null). The same text for every
 * batch (write.ts keeps it prepared).
 */
export const VALUES_CTES: SQL = sql`vins as (
      insert into telemetry_values (device_id, key, ts, svc_recv_ts, value)
      select device_id, key, ts, svc_recv_ts, value
      from jsonb_to_recordset(${sql.placeholder('tv_rows')}::text::jsonb)
        as r(device_id int, key text, ts bigint, svc_recv_ts bigint, value jsonb)
      order by device_id, key, ts
      on conflict (device_id, key, ts) do nothing
      returning device_id, key, ts, svc_recv_ts, value
    ), vnewest as (
      insert into telemetry_latest (device_id, key, ts, svc_recv_ts, v1, v2, v3, value)
      select distinct on (device_id, key) device_id, key, ts, svc_recv_ts, null::float8, null::float8, null::float8, value from vins
      order by device_id, key, least(ts, svc_recv_ts) desc, ts desc
      on conflict (device_id, key) do update set ts = excluded.ts, svc_recv_ts = excluded.svc_recv_ts,
        v1 = null, v2 = null, v3 = null, value = excluded.value
      where (least(excluded.ts, excluded.svc_recv_ts), excluded.ts)
        >= (least(telemetry_latest.ts, telemetry_latest.svc_recv_ts), telemetry_latest.ts)
    )`;
