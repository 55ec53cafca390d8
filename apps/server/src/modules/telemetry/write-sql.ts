/**
 * The status, device and counter parts of the ingest batch statement (write.ts; telemetry is in write-telemetry.ts):
 * each is one data-modifying CTE of fixed text (so PostgreSQL can keep the statement prepared) that takes whole columns
 * as array parameters (write-arrays.ts) through `unnest`, whatever the batch size, and a function that answers its
 * parameters for a batch, or null when the batch has nothing for it; works the same on PostgreSQL and PGlite.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { TRejectedIn, TStatusRowIn, TTelemetryRowIn } from './rows.js';
import type { LastSeenWrites } from './last-seen-writes.js';
import { ranksAfter } from './latest-order.js';
import { numberColumn, textColumn } from './write-arrays.js';

const col = <T>(rows: readonly T[], pick: (r: T) => number | null): string => numberColumn(rows.map(pick));
/** A text parameter named `name`, filled per batch. */
const p = (name: string): SQL => sql`${sql.placeholder(name)}::text`;

/** CTE `status_in`: stores status words as received (a resent word is absorbed by the primary key). */
export const STATUS_CTE: SQL = sql`status_in as (
    insert into device_status (device_id, ts, svc_recv_ts, value)
    select * from unnest(${p('s_device')}::int[], ${p('s_ts')}::bigint[], ${p('s_recv')}::bigint[], ${p('s_value')}::bigint[])
    on conflict (device_id, ts) do nothing)`;

/** {@link STATUS_CTE}'s parameters for `rows` (sorted by (device, ts), no repeats), or null when there are none. */
export function statusParams(rows: readonly TStatusRowIn[]): Record<string, string> | null {
  if (rows.length === 0) return null;
  return {
    s_device: col(rows, (r) => r.deviceId),
    s_ts: col(rows, (r) => r.ts),
    s_recv: col(rows, (r) => r.svcRecvTs),
    s_value: col(rows, (r) => r.value),
  };
}

/** One device's part of a batch: its first and last receive time and its newest status word, if any. */
interface TDeviceTouch {
  first: number;
  last: number;
  status: TStatusRowIn | null;
}

/** Whether the batch's newest word of a device (`s`) replaces the one it has (see {@link DEVICES_CTE}). */
const TAKES_WORD = sql`s.status_ts is not null and devices.status_ts is distinct from s.status_ts and (devices.status_ts is null
    or (least(s.status_ts, s.status_recv_ts), s.status_ts) > (
      least(devices.status_ts, coalesce(
        (select held.svc_recv_ts from device_status held where held.device_id = devices.id and held.ts = devices.status_ts),
        devices.status_ts)),
      devices.status_ts))`;

/**
 * CTEs `devices_locked` and `devices_touched`: for every device of the batch, in ONE update of its row (a statement
 * may change a row once):
 * - last_seen_at = greatest(itself, the device's newest svc_recv_ts in the batch); first_seen_at (its activation) is
 *   set once, to its oldest svc_recv_ts in the batch, when still null;
 * - status_value/status_ts = the device's newest word of the batch when it ranks after the word the device has
 *   (latest-order.ts: ts capped at the receive time, then ts). The word it has is ranked with its receive time from
 *   device_status (one primary-key probe per device); a word whose row is gone ranks by its ts. A resent word (the
 *   same ts) changes nothing, as device_status keeps the first one. The probe reads the statement's snapshot, which
 *   lacks this batch's status_in rows — the held word was stored by an earlier batch, so that changes nothing.
 * The rows are locked in id order first, so concurrent batches take them in the same order (no deadlocks).
 */
export const DEVICES_CTE: SQL = sql`devices_locked as (
    select id from devices where id = any(${p('d_id')}::int[]) order by id for no key update
  ), devices_touched as (
    update devices set last_seen_at = greatest(coalesce(devices.last_seen_at, 0), s.last_ts),
      first_seen_at = coalesce(devices.first_seen_at, s.first_ts),
      status_value = case when ${TAKES_WORD} then s.status_value else devices.status_value end,
      status_ts = case when ${TAKES_WORD} then s.status_ts else devices.status_ts end
    from devices_locked join unnest(${p('d_id')}::int[], ${p('d_first')}::bigint[], ${p('d_last')}::bigint[],
      ${p('d_status_ts')}::bigint[], ${p('d_status_recv')}::bigint[], ${p('d_status_value')}::bigint[])
      as s(device_id, first_ts, last_ts, status_ts, status_recv_ts, status_value) on s.device_id = devices_locked.id
    where devices.id = s.device_id)`;

/**
 * {@link DEVICES_CTE}'s parameters for the devices of `telemetry` and `status`, or null when there are none. With
 * `lastSeen`, a device without a status word in the batch whose heard-from time is current there is left out (its row
 * is neither locked nor written); `written` then receives each device left in and its newest receive time.
 */
export function devicesParams(
  telemetry: readonly TTelemetryRowIn[],
  status: readonly TStatusRowIn[],
  lastSeen?: LastSeenWrites,
  written?: Map<number, number>,
): Record<string, string> | null {
  const touched = new Map<number, TDeviceTouch>();
  for (const rows of [telemetry, status]) {
    for (const r of rows) {
      const t = touched.get(r.deviceId);
      if (!t) touched.set(r.deviceId, { first: r.svcRecvTs, last: r.svcRecvTs, status: null });
      else {
        t.first = Math.min(t.first, r.svcRecvTs);
        t.last = Math.max(t.last, r.svcRecvTs);
      }
    }
  }
  for (const r of status) {
    const t = touched.get(r.deviceId) as TDeviceTouch;
    if (!t.status || ranksAfter(r, t.status)) t.status = r;
  }
  if (lastSeen) {
    for (const [id, t] of touched) {
      if (t.status === null && lastSeen.isCurrent(id, t.last)) touched.delete(id);
      else written?.set(id, t.last);
    }
  }
  if (touched.size === 0) return null;
  const ids = [...touched.keys()].sort((a, b) => a - b);
  const list = ids.map((id) => touched.get(id) as TDeviceTouch);
  return {
    d_id: numberColumn(ids),
    d_first: col(list, (t) => t.first),
    d_last: col(list, (t) => t.last),
    d_status_ts: col(list, (t) => t.status?.ts ?? null),
    d_status_recv: col(list, (t) => t.status?.svcRecvTs ?? null),
    d_status_value: col(list, (t) => t.status?.value ?? null),
  };
}

/** CTE `stats_in`: adds rejected-point counts per device and reason, stamped with the batch's time. */
export const INGEST_STATS_CTE: SQL = sql`stats_in as (
    insert into device_ingest_stats (device_id, reason, count, last_at)
    select d, r, c, ${p('r_now')}::bigint from unnest(${p('r_device')}::int[], ${p('r_reason')}::text[], ${p('r_count')}::bigint[]) as x(d, r, c)
    on conflict (device_id, reason) do update set count = device_ingest_stats.count + excluded.count, last_at = excluded.last_at)`;

/** {@link INGEST_STATS_CTE}'s parameters: `rejected` summed per device and reason, stamped `nowMs`; null when none. */
export function ingestStatsParams(rejected: readonly TRejectedIn[], nowMs: number): Record<string, string> | null {
  const sums = new Map<string, TRejectedIn>();
  for (const r of rejected) {
    const id = `${r.deviceId}\u0000${r.reason}`;
    const cur = sums.get(id);
    sums.set(id, { ...r, count: (cur?.count ?? 0) + r.count });
  }
  const rows = [...sums.values()].sort((a, b) => a.deviceId - b.deviceId || (a.reason < b.reason ? -1 : 1));
  if (rows.length === 0) return null;
  return {
    r_now: String(nowMs),
    r_device: col(rows, (r) => r.deviceId),
    r_reason: textColumn(rows.map((r) => r.reason)),
    r_count: col(rows, (r) => r.count),
  };
}
