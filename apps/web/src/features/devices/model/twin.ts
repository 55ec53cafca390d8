/**
 * Device twin on the console (spec §3 "Live messages", §4 status word): merging a live message into the cached
 * twin so telemetry-status updates with no reload, and the display model of the decoded status.
 */
import {
  decodeStatusWord,
  STATUS_LIVE_KEY,
  STATUS_WORD_MAX,
  statusWordToBinary,
  type TDeviceTwin,
  type TLatestValue,
  type TLiveMessage,
  type TStatusGroup,
} from '@tessera/contracts';

/**
 * Returns a new twin with the message's points applied: a telemetry key takes a point only when it is not older
 * than the one held (live messages can overtake the initial fetch); `$status` carries the 40-bit word in `vs[0]`
 * and is decoded by the project's status groups; a non-numeric key's point keeps its `value`. A status value
 * outside 0..2^40−1 is ignored, not thrown.
 * `receivedAt` (epoch ms) stands in for the server receive time, which live messages do not carry.
 */
export function mergeLiveMessage(
  twin: TDeviceTwin | undefined,
  message: TLiveMessage,
  tangramId: string,
  groups: readonly TStatusGroup[],
  receivedAt: number,
): TDeviceTwin {
  const telemetry: TLatestValue[] = [...(twin?.telemetry ?? [])];
  let status = twin?.status ?? null;
  for (const point of message.list) {
    if (point.key === STATUS_LIVE_KEY) {
      const value = point.vs[0];
      if (!isStatusWord(value) || (status && point.ts < status.ts)) continue;
      status = { value, ts: point.ts, binary: statusWordToBinary(value), decoded: decodeStatusWord(value, groups) };
      continue;
    }
    const at = telemetry.findIndex((t) => t.key === point.key);
    const next: TLatestValue = { key: point.key, ts: point.ts, svc_recv_ts: receivedAt, vs: point.vs };
    if (point.value !== undefined) next.value = point.value;
    if (at < 0) telemetry.push(next);
    else if (point.ts >= telemetry[at].ts) telemetry[at] = next;
  }
  return { tangramId: twin?.tangramId ?? tangramId, telemetry, status };
}

function isStatusWord(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= STATUS_WORD_MAX;
}

/** One row of the decoded status table: `bits` is the slice's bit range counted from the right, e.g. "7–4". */
export interface TStatusRow {
  name: string;
  bits: string;
  binary: string;
  label: string | null;
  raw: number;
}

/** Status table rows, one per status line of the project, in definition order. */
export function toStatusRows(status: TDeviceTwin['status']): TStatusRow[] {
  return (status?.decoded ?? []).map((d) => ({
    name: d.name,
    bits: d.bytesLength === 1 ? String(d.index) : `${d.index + d.bytesLength - 1}–${d.index}`,
    binary: d.binary,
    label: d.label,
    raw: d.raw,
  }));
}

/** A telemetry card: the sensor's definition (or the bare key when the project does not define it) and its latest point. */
export interface TTelemetryCard {
  key: string;
  name: string;
  unit: string;
  latest: TLatestValue | null;
}

/** Cards for the project's enabled sensors, then any other key the device reported, each with its latest point. */
export function toTelemetryCards(
  sensors: readonly { key: string; name: string; unit: string; enabled: boolean }[],
  telemetry: readonly TLatestValue[],
): TTelemetryCard[] {
  const byKey = new Map(telemetry.map((t) => [t.key, t]));
  const cards: TTelemetryCard[] = sensors
    .filter((s) => s.enabled || byKey.has(s.key))
    .map((s) => ({ key: s.key, name: s.name, unit: s.unit, latest: byKey.get(s.key) ?? null }));
  const known = new Set(cards.map((c) => c.key));
  for (const t of telemetry) if (!known.has(t.key)) cards.push({ key: t.key, name: t.key, unit: '', latest: t });
  return cards;
}
