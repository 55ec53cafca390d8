/** Sorting and de-duplication of a batch's rows by primary key (lock order; one row per key per statement). */
import type { TStatusRowIn, TTelemetryRowIn } from './rows.js';

/**
 * Telemetry sorted by (device, key id, key, ts) — the raw table's primary key order (device_id, key_id, ts) when
 * `keyIds` holds the keys' ids (a key it lacks sorts first; none given: by (device, key, ts)); of points repeated
 * inside the batch the first one is kept.
 */
export function sortTelemetry(rows: readonly TTelemetryRowIn[], keyIds?: ReadonlyMap<string, number>): TTelemetryRowIn[] {
  const id = (r: TTelemetryRowIn) => keyIds?.get(r.key) ?? -1;
  // Array.prototype.sort is stable (ECMAScript 2019), so of equal keys the first received stays first.
  const sorted = [...rows].sort((a, b) => a.deviceId - b.deviceId || id(a) - id(b) || cmp(a.key, b.key) || a.ts - b.ts);
  let kept = 0;
  for (const r of sorted) if (kept === 0 || !samePoint(sorted[kept - 1], r)) sorted[kept++] = r;
  sorted.length = kept;
  return sorted;
}

/** Status words sorted by (device, ts); repeats inside the batch are dropped. */
export function sortStatus(rows: readonly TStatusRowIn[]): TStatusRowIn[] {
  const sorted = [...rows].sort((a, b) => a.deviceId - b.deviceId || a.ts - b.ts);
  return sorted.filter((r, i) => i === 0 || sorted[i - 1].deviceId !== r.deviceId || sorted[i - 1].ts !== r.ts);
}

function samePoint(a: TTelemetryRowIn, b: TTelemetryRowIn): boolean {
  return a.deviceId === b.deviceId && a.key === b.key && a.ts === b.ts;
}

/** Byte-order string comparison (a stable lock order; PostgreSQL need not sort the same way, only consistently). */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
