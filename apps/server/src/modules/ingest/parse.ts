/**
 * Parses one device publish (docs/protocol.md "Telemetry", "Status") into points or a refusal. A message is
 * accepted or refused whole: one bad point, one key the project does not know, or one timestamp outside the
 * accepted window (isDeviceTsAccepted) refuses all of it. Numeric points take the fast path (one zod parse); a
 * message the fast path refuses is read again by parse-values.ts when the project has keys of other value types or
 * accepts undeclared keys (then also a message with a key it does not know yet).
 */
import { isDeviceTsAccepted, MAX_POINTS_PER_MESSAGE, ZStatusMessage, ZTelemetryMessage, type TTelemetryPoint } from '@tessera/contracts';
import { firstIssue, outOfWindow, refuseKey, type TKnownKeys, type TParsedMessage } from './parse-outcome.js';
import { parseWithValues } from './parse-values.js';

export type { TKnownKeys, TParsedMessage, TParsedPoint, TRejectReason } from './parse-outcome.js';

/**
 * The two shapes of ZTelemetryMessage (one point, or a list of them), parsed by the one the JSON has rather than
 * through the union, which tries the single point first and builds its issues for every list.
 */
const [ZOnePoint, ZPointList] = ZTelemetryMessage.options;

/**
 * Parses `payload` (UTF-8 JSON) published on a telemetry or status topic.
 * @param knownKeys the telemetry keys of the device's project (project_sensors); others are `unknown_key`, a value
 *   not of its key's type `malformed`, a non-numeric value over its bounds `value_too_large`.
 * @param nowMs the server's clock when the message arrived (epoch ms), for the timestamp window.
 */
export function parseDevicePayload(
  kind: 'telemetry' | 'status',
  payload: Buffer,
  knownKeys: TKnownKeys,
  nowMs: number = Date.now(),
): TParsedMessage {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed', count: 1, detail: 'payload is not JSON' };
  }
  if (kind === 'status') {
    const status = ZStatusMessage.safeParse(json);
    if (!status.success) return { ok: false, reason: 'malformed', count: 1, detail: firstIssue(status.error.issues) };
    if (!isDeviceTsAccepted(status.data.ts, nowMs)) return outOfWindow(status.data.ts, 1);
    return { ok: true, kind: 'status', status: status.data };
  }
  let points: TTelemetryPoint[];
  if (Array.isArray(json)) {
    if (json.length > MAX_POINTS_PER_MESSAGE) {
      return { ok: false, reason: 'too_many_points', count: json.length, detail: `more than ${MAX_POINTS_PER_MESSAGE} points` };
    }
    const parsed = ZPointList.safeParse(json);
    if (!parsed.success) {
      if (knownKeys.valueTypes?.size || knownKeys.undeclared) return parseWithValues(json, knownKeys, nowMs);
      return { ok: false, reason: 'malformed', count: Math.max(json.length, 1), detail: firstIssue(parsed.error.issues) };
    }
    points = parsed.data;
  } else {
    const parsed = ZOnePoint.safeParse(json);
    if (!parsed.success) {
      if (knownKeys.valueTypes?.size || knownKeys.undeclared) return parseWithValues(json, knownKeys, nowMs);
      return { ok: false, reason: 'malformed', count: 1, detail: firstIssue(parsed.error.issues) };
    }
    points = [parsed.data];
  }
  // One pass: the first unknown key refuses the message before any timestamp is looked at, as before.
  let outside: TTelemetryPoint | undefined;
  for (const p of points) {
    if (!knownKeys.has(p.key)) {
      // A project that accepts undeclared keys reads the message again, typing the keys it does not know yet.
      if (knownKeys.undeclared && !knownKeys.valueTypes?.has(p.key)) return parseWithValues(json, knownKeys, nowMs);
      return refuseKey(p.key, knownKeys, points.length);
    }
    if (!outside && !isDeviceTsAccepted(p.ts, nowMs)) outside = p;
  }
  if (outside) return outOfWindow(outside.ts, points.length);
  return { ok: true, kind: 'telemetry', points };
}
