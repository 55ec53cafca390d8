/** Response shapes of the time-series API (never a DB row). */
import {
  decodeStatusWord,
  statusWordToBinary,
  type TDecodedStatusWord,
  type TLatestValue,
  type TStatusGroup,
  type TTelemetryRow,
  type TTelemetryValue,
} from '@tessera/contracts';

interface TPointRow {
  key: string;
  ts: number;
  svcRecvTs: number;
  v1: number | null;
  v2: number | null;
  v3: number | null;
}

/** The values of a point as `vs`, without trailing absent slots (as the live channel sends them). */
export function valuesOf(r: Pick<TPointRow, 'v1' | 'v2' | 'v3'>): (number | null)[] {
  const vs = [r.v1, r.v2, r.v3];
  while (vs.length > 1 && vs[vs.length - 1] === null) vs.pop();
  return vs;
}

/** A telemetry_latest row → {@link TLatestValue}: a non-numeric key's `value` with an empty `vs`. */
export function presentLatest(r: TPointRow & { value?: TTelemetryValue | null }): TLatestValue {
  if (r.value !== null && r.value !== undefined)
    return { key: r.key, ts: Number(r.ts), svc_recv_ts: Number(r.svcRecvTs), vs: [], value: r.value };
  return { key: r.key, ts: Number(r.ts), svc_recv_ts: Number(r.svcRecvTs), vs: valuesOf(r) };
}

/** A raw telemetry row → the third-party `{ ts, svc_recv_ts, key, v1, v2, v3 }` form, with `value` for a non-numeric key. */
export function presentRow(r: TPointRow & { value?: TTelemetryValue | null }): TTelemetryRow {
  const row: TTelemetryRow = { ts: Number(r.ts), svc_recv_ts: Number(r.svcRecvTs), key: r.key, v1: r.v1, v2: r.v2, v3: r.v3 };
  if (r.value !== null && r.value !== undefined) row.value = r.value;
  return row;
}

/**
 * A device's last status word decoded with its project's `groups` (spec §4: 40 bits, slices counted from the right),
 * or null when the device never sent one.
 */
export function presentStatus(value: number | null, ts: number | null, groups: readonly TStatusGroup[]): TDecodedStatusWord | null {
  if (value === null || ts === null) return null;
  const word = Number(value);
  return { value: word, ts: Number(ts), binary: statusWordToBinary(word), decoded: decodeStatusWord(word, groups) };
}
