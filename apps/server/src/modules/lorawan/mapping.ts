/**
 * The decoded payload of an uplink turned into a native telemetry message (docs/decisions/lorawan.md "Mapping"): each
 * mapping entry reads the field at its dot-separated path and stores it under its project key; with no entries, each
 * top-level field is stored under the key of the same name. Values pass as they are: ingest's parser then refuses the
 * message whole as it would any other — a value not of its key's declared type (`malformed`; a string, boolean or
 * JSON object is stored for a key declared so, docs/decisions/telemetry.md), a key the project lacks
 * (`unknown_key`), a time outside the window (`ts_out_of_range`).
 */
import { MAX_TELEMETRY_VALUES, type TLorawanMappingEntry } from '@tessera/contracts';

/** One native point as ingest's parser reads it; `vs` holds the values whatever their type, for that parser to judge. */
export interface TMappedPoint {
  key: string;
  ts: number;
  vs: unknown[];
}

/** The value at `path` (`a.b.0`) of `decoded`, or undefined when any step is missing. */
export function valueAt(decoded: Record<string, unknown>, path: string): unknown {
  let at: unknown = decoded;
  for (const step of path.split('.')) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, step)) return undefined;
    at = (at as Record<string, unknown>)[step];
  }
  return at;
}

/**
 * The points of `decoded` at `ts` (epoch ms) under `mapping`. Entries whose field the uplink lacks are skipped (a
 * decoder may send different fields on different ports); entries naming the same key give one point whose values
 * follow the mapping's order (a three-axis `vibration` from `x`, `y`, `z`), at most MAX_TELEMETRY_VALUES of them.
 */
export function mapDecodedPayload(decoded: Record<string, unknown>, mapping: readonly TLorawanMappingEntry[], ts: number): TMappedPoint[] {
  if (mapping.length === 0) return Object.keys(decoded).map((key) => ({ key, ts, vs: [decoded[key]] }));
  const byKey = new Map<string, TMappedPoint>();
  for (const { path, key } of mapping) {
    const value = valueAt(decoded, path);
    if (value === undefined) continue;
    const point = byKey.get(key);
    if (!point) byKey.set(key, { key, ts, vs: [value] });
    else if (point.vs.length < MAX_TELEMETRY_VALUES) point.vs.push(value);
  }
  return [...byKey.values()];
}
