/**
 * ThingsBoard's telemetry payloads (docs/protocol.md "ThingsBoard device API") rewritten into the native telemetry
 * message, so that they go through the one ingest pipeline — its validation, limits, refusal counters and QoS 1
 * promise — unchanged: `{"temperature":25}` (stamped with the server's receive time), `{"ts":…,"values":{…}}`, or an
 * array of either. Each key/value becomes one native point `{ key, ts, vs: [value] }`; the native parser then
 * refuses the message whole as it would a native one (a key the project lacks: `unknown_key`; a value not of its key's
 * declared type: `malformed`, over its bounds: `value_too_large`, docs/decisions/device-apis.md "Values that are not
 * numbers"; over 1000 values:
 * `too_many_points`; a timestamp outside the window: `ts_out_of_range`).
 */

/** A native message the native parser refuses as `malformed` (one point with no key): what an unreadable shape becomes. */
const MALFORMED = Buffer.from('{}');

/** True for a plain JSON object (not an array, not null). */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The timestamped form `{ ts, values }` with nothing beside them (ThingsBoard reads any other object as flat). */
function isTimestamped(v: Record<string, unknown>): v is { ts: unknown; values: unknown } {
  return 'ts' in v && 'values' in v && Object.keys(v).length === 2;
}

/** One native point as ingest's parser reads it; `vs` holds the value whatever its type, for that parser to judge. */
interface TLoosePoint {
  key: string;
  ts: unknown;
  vs: unknown[];
}

/**
 * Rewrites `payload` (UTF-8 JSON published on `v1/devices/me/telemetry` or POSTed to `/api/v1/{token}/telemetry`)
 * as a native telemetry message (a JSON array of points), or as a message the native parser refuses as `malformed`
 * when it is not JSON or not one of ThingsBoard's shapes.
 * @param nowMs the server's clock when the message arrived (epoch ms): the `ts` of the flat form.
 */
export function thingsboardTelemetryToNative(payload: Buffer, nowMs: number): Buffer {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return payload;
  }
  return thingsboardJsonToNative(json, nowMs);
}

/**
 * {@link thingsboardTelemetryToNative} of a payload already parsed: `json` is one of ThingsBoard's telemetry shapes
 * (the value a gateway message holds for one device, docs/protocol.md "ThingsBoard gateway API", is one too).
 */
export function thingsboardJsonToNative(json: unknown, nowMs: number): Buffer {
  const entries = Array.isArray(json) ? json : [json];
  const points: TLoosePoint[] = [];
  for (const entry of entries) {
    if (!isObject(entry)) return MALFORMED;
    let ts: unknown = nowMs;
    let values: Record<string, unknown> = entry;
    if (isTimestamped(entry)) {
      if (!isObject(entry.values)) return MALFORMED;
      ts = entry.ts;
      values = entry.values;
    }
    for (const key of Object.keys(values)) points.push({ key, ts, vs: [values[key]] });
  }
  return points.length === 0 ? MALFORMED : Buffer.from(JSON.stringify(points));
}
