/**
 * Which point is "latest" (telemetry_latest, and a device's status word in devices.status_value/status_ts;
 * docs/decisions/telemetry.md "Latest and a device clock ahead"). A point ranks by its device ts capped at the
 * server's receive time, `least(ts, svc_recv_ts)`, ties broken by ts: a point from the past ranks by its ts (a
 * backlog read late never replaces a newer value), a point stamped ahead of its arrival ranks as if taken when it
 * arrived — so it is latest when it comes, and every point after it whose ts has passed that arrival replaces it.
 * The stored history keeps the device's ts; only the choice of latest looks at the receive time. The SQL
 * statements of the batch writer (write-telemetry.ts, write-sql.ts) compare the same pair.
 */

/** A point's receive-capped rank, ms. */
function latestRank(p: { ts: number; svcRecvTs: number }): number {
  return Math.min(p.ts, p.svcRecvTs);
}

/** True when `a` ranks after `b` for latest: a later receive-capped ts, or the same and a later ts. */
export function ranksAfter(a: { ts: number; svcRecvTs: number }, b: { ts: number; svcRecvTs: number }): boolean {
  const ra = latestRank(a);
  const rb = latestRank(b);
  return ra > rb || (ra === rb && a.ts > b.ts);
}
