/**
 * The status, last-seen and counter statements of the ingest batch writer (write.ts; telemetry is in
 * write-telemetry.ts). Each takes whole columns as array parameters through `unnest`, one statement per table
 * whatever the batch size; works the same on PostgreSQL and PGlite.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { TRejectedIn, TStatusRowIn, TTelemetryRowIn } from './rows.js';
import { ranksAfter } from './latest-order.js';
import { sqlArray } from '../../db/sql-helpers.js';

/** Anything that runs SQL: the database or a transaction. */
export type TExec = Pick<Db, 'execute'>;

const col = <T, V>(rows: readonly T[], pick: (r: T) => V): SQL => sqlArray(rows.map(pick));

/** Stores status words as received (a resent word is absorbed by the primary key). */
export async function insertStatus(tx: TExec, rows: readonly TStatusRowIn[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into device_status (device_id, ts, svc_recv_ts, value)
    select * from unnest(${col(rows, (r) => r.deviceId)}::int[], ${col(rows, (r) => r.ts)}::bigint[],
      ${col(rows, (r) => r.svcRecvTs)}::bigint[], ${col(rows, (r) => r.value)}::bigint[])
    on conflict (device_id, ts) do nothing`);
}

/**
 * Sets devices.status_value/status_ts to each device's newest word of the batch when it ranks after the word the
 * device has (latest-order.ts: ts capped at the receive time, then ts). The word the device has is ranked with its
 * receive time from device_status (one primary-key probe per device in the same statement); a word whose row is
 * gone ranks by its ts. A resent word (the same ts) changes nothing, as device_status keeps the first one.
 */
export async function updateDeviceStatus(tx: TExec, rows: readonly TStatusRowIn[]): Promise<void> {
  const newest = new Map<number, TStatusRowIn>();
  for (const r of rows) {
    const held = newest.get(r.deviceId);
    if (!held || ranksAfter(r, held)) newest.set(r.deviceId, r);
  }
  const list = [...newest.values()];
  if (list.length === 0) return;
  await tx.execute(sql`
    update devices set status_value = s.value, status_ts = s.ts
    from unnest(${col(list, (r) => r.deviceId)}::int[], ${col(list, (r) => r.ts)}::bigint[], ${col(list, (r) => r.svcRecvTs)}::bigint[],
      ${col(list, (r) => r.value)}::bigint[]) as s(device_id, ts, recv_ts, value)
    where devices.id = s.device_id and devices.status_ts is distinct from s.ts and (devices.status_ts is null or (least(s.ts, s.recv_ts), s.ts) > (
      least(devices.status_ts, coalesce(
        (select held.svc_recv_ts from device_status held where held.device_id = devices.id and held.ts = devices.status_ts),
        devices.status_ts)),
      devices.status_ts))`);
}

/**
 * devices.last_seen_at = greatest(itself, the newest svc_recv_ts of the device in the batch); first_seen_at (the
 * device's activation) is set once, to the oldest svc_recv_ts of the device in the batch, when still null.
 */
export async function touchLastSeen(tx: TExec, telemetry: readonly TTelemetryRowIn[], status: readonly TStatusRowIn[]): Promise<void> {
  const seen = new Map<number, { first: number; last: number }>();
  for (const rows of [telemetry, status]) {
    for (const r of rows) {
      const s = seen.get(r.deviceId);
      if (!s) seen.set(r.deviceId, { first: r.svcRecvTs, last: r.svcRecvTs });
      else {
        s.first = Math.min(s.first, r.svcRecvTs);
        s.last = Math.max(s.last, r.svcRecvTs);
      }
    }
  }
  const ids = [...seen.keys()].sort((a, b) => a - b);
  if (ids.length === 0) return;
  const of = (id: number) => seen.get(id) as { first: number; last: number };
  await tx.execute(sql`
    update devices set last_seen_at = greatest(coalesce(devices.last_seen_at, 0), s.last_ts),
      first_seen_at = coalesce(devices.first_seen_at, s.first_ts)
    from unnest(${sqlArray(ids)}::int[], ${sqlArray(ids.map((id) => of(id).first))}::bigint[], ${sqlArray(ids.map((id) => of(id).last))}::bigint[])
      as s(device_id, first_ts, last_ts)
    where devices.id = s.device_id`);
}

/** Adds rejected-point counts per device and reason. */
export async function upsertIngestStats(tx: TExec, rejected: readonly TRejectedIn[], now: number): Promise<void> {
  const sums = new Map<string, TRejectedIn>();
  for (const r of rejected) {
    const id = `${r.deviceId}\u0000${r.reason}`;
    const cur = sums.get(id);
    sums.set(id, { ...r, count: (cur?.count ?? 0) + r.count });
  }
  const rows = [...sums.values()].sort((a, b) => a.deviceId - b.deviceId || (a.reason < b.reason ? -1 : 1));
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into device_ingest_stats (device_id, reason, count, last_at)
    select d, r, c, ${now}::bigint from unnest(${col(rows, (r) => r.deviceId)}::int[], ${col(rows, (r) => r.reason)}::text[],
      ${col(rows, (r) => r.count)}::bigint[]) as x(d, r, c)
    on conflict (device_id, reason) do update set count = device_ingest_stats.count + excluded.count, last_at = excluded.last_at`);
}
