/**
 * The one way to read raw telemetry points: `telemetry_points()` (migration 0019) answers the points of one device's
 * key in a ts range from the hot partitions, the days waiting for compression and the compressed chunks alike, a
 * resent point once. docs/decisions/telemetry-storage.md "Reads".
 */
import type { TTelemetryValue } from '@tessera/contracts';
import { type SQL, sql } from 'drizzle-orm';

/**
 * A FROM item of the raw points of `deviceId`'s `key` (values, or SQL expressions such as a lateral column) with `fromTs ≤ ts ≤ toTs` (epoch ms, inclusive), columns
 * `ts`, `svc_recv_ts`, `v1`, `v2`, `v3`, unordered (add `order by ts`). The planner inlines the function, so the
 * range prunes partitions and chunks as a query on the table would.
 */
export function rawPoints(deviceId: number | SQL, key: string | SQL, fromTs: number, toTs: number): SQL {
  return sql`telemetry_points(${deviceId}::integer, ${key}::text, ${fromTs}::bigint, ${toTs}::bigint)`;
}

/**
 * {@link rawPoints} as a subquery in ts order, for aggregates whose float8 sums depend on the order they add in
 * (`sum`, `avg`): fed in ts order they answer the same to the last bit whether the points are hot or compressed.
 * Alias it in the FROM clause (`from ${orderedRawPoints(…)} as p`).
 */
export function orderedRawPoints(deviceId: number | SQL, key: string | SQL, fromTs: number, toTs: number): SQL {
  return sql`(select ts, svc_recv_ts, v1, v2, v3 from ${rawPoints(deviceId, key, fromTs, toTs)} order by ts)`;
}

/** The same FROM item as SQL text, for statements built as text (COPY): every argument made safe by the caller. */
export function rawPointsText(deviceId: number, keyLiteral: string, fromTs: number, toTs: number): string {
  return `telemetry_points(${Math.trunc(deviceId)}::integer, ${keyLiteral}::text, ${Math.trunc(fromTs)}::bigint, ${Math.trunc(toTs)}::bigint)`;
}

/**
 * A FROM item of the points of `deviceId`'s non-numeric `key` (telemetry_values; docs/decisions/telemetry.md "Values
 * that are not numbers") with `fromTs ≤ ts ≤ toTs`, columns `ts`, `svc_recv_ts`, `value` (jsonb), unordered; a subquery
 * (alias it: PostgreSQL before 16 wants one).
 */
export function valuePoints(deviceId: number | SQL, key: string | SQL, fromTs: number, toTs: number): SQL {
  return sql`(select ts, svc_recv_ts, value from telemetry_values
    where device_id = ${deviceId}::integer and key = ${key}::text and ts between ${fromTs}::bigint and ${toTs}::bigint)`;
}

/** A row of {@link anyPoints}: times in epoch ms, `v1..v3` of a number key, `value` of any other (else null). */
export interface TAnyPointRow {
  ts: number;
  svc_recv_ts: number;
  v1: number | null;
  v2: number | null;
  v3: number | null;
  value: TTelemetryValue | null;
}

/**
 * Every raw point of `deviceId`'s `key` in [fromTs, toTs] whatever its key's value type: {@link rawPoints} and
 * {@link valuePoints} as one FROM item (alias it), columns `ts`, `svc_recv_ts`, `v1`, `v2`, `v3`, `value` (null for a
 * number), unordered.
 */
export function anyPoints(deviceId: number | SQL, key: string | SQL, fromTs: number, toTs: number): SQL {
  return sql`(select ts, svc_recv_ts, v1, v2, v3, null::jsonb as value from ${rawPoints(deviceId, key, fromTs, toTs)}
    union all select ts, svc_recv_ts, null::float8, null::float8, null::float8, value from ${valuePoints(deviceId, key, fromTs, toTs)} as v)`;
}
