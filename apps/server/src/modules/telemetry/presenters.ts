/** Response shapes of the time-series API (never a DB row). */
import {
  decodeStatusWord,
  statusWordToBinary,
  type TDecodedStatusWord,
  type TLatestValue,
  type TStatusGroup,
  type TTelemetryRow,
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

/** A telemetry_latest row → {@link TLatestValue}. */
export function presentLatest(r: TPointRow): TLatestValue {
  return { key: r.key, ts: Number(r.ts), svc_recv_ts: Number(r.svcRecvTs), vs: valuesOf(r) };
}

/** A raw telemetry row → the third-party `{ ts, svc_recv_ts, key, v1, v2, v3 }` form. */
export function presentRow(r: TPointRow): TTelemetryRow {
  return { ts: Number(r.ts), svc_recv_ts: Number(r.svcRecvTs), key: r.key, v1: r.v1, v2: r.v2, v3: r.v3 };
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
