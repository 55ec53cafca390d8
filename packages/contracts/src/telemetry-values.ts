/**
 * Telemetry keys of any value type (docs/decisions/telemetry.md "Values that are not numbers"): each project sensor
 * declares the type of its values — `number` (one to three finite numbers in `vs`, the default and the fast path),
 * `string`, `boolean` or `json` (a JSON object or array). A point of a non-numeric key carries exactly one value,
 * `vs: [value]` on the device protocol (docs/protocol.md "Values that are not numbers"), and `value` in the API and
 * live messages (its `vs` is empty there).
 */
import { z } from 'zod';
import { TELEMETRY_JSON_MAX_BYTES, TELEMETRY_JSON_MAX_DEPTH, TELEMETRY_STRING_MAX_CHARS } from './limits.js';

/** The value types a telemetry key may declare. */
export const TELEMETRY_VALUE_TYPES = ['number', 'string', 'boolean', 'json'] as const;
export const ZTelemetryValueType = z.enum(TELEMETRY_VALUE_TYPES);
export type TTelemetryValueType = z.infer<typeof ZTelemetryValueType>;
/** The value types other than `number`: stored one value per point in `telemetry_values`. */
export type TNonNumericValueType = Exclude<TTelemetryValueType, 'number'>;

/**
 * The value of one point of a non-numeric key: a string, a boolean, or a JSON object or array (whose members are JSON
 * as JSON.parse made them). Not recursive in the schema, so the OpenAPI document has no unresolvable self-reference.
 */
export const ZTelemetryValue = z.union([z.string(), z.boolean(), z.array(z.unknown()), z.record(z.string(), z.unknown())]);
export type TTelemetryValue = z.infer<typeof ZTelemetryValue>;

/** Why a value was refused: not of the key's type (`malformed`), or over a bound (`value_too_large`). */
export interface TValueRefusal {
  reason: 'malformed' | 'value_too_large';
  detail: string;
}

/**
 * Checks one value sent for a key of non-numeric `type`: its JSON type, then its bounds (TELEMETRY_STRING_MAX_CHARS,
 * TELEMETRY_JSON_MAX_BYTES, TELEMETRY_JSON_MAX_DEPTH). Returns null when it is accepted. Pure.
 */
export function checkTelemetryValue(key: string, type: TNonNumericValueType, value: unknown): TValueRefusal | null {
  if (type === 'string') {
    if (typeof value !== 'string') return mismatch(key, type, value);
    if (value.length > TELEMETRY_STRING_MAX_CHARS)
      return { reason: 'value_too_large', detail: `${key}: a string longer than ${TELEMETRY_STRING_MAX_CHARS} characters` };
    return null;
  }
  if (type === 'boolean') return typeof value === 'boolean' ? null : mismatch(key, type, value);
  if (typeof value !== 'object' || value === null) return mismatch(key, type, value);
  if (jsonDepthOver(value, TELEMETRY_JSON_MAX_DEPTH))
    return { reason: 'value_too_large', detail: `${key}: JSON nested deeper than ${TELEMETRY_JSON_MAX_DEPTH} levels` };
  if (utf8.encode(JSON.stringify(value)).length > TELEMETRY_JSON_MAX_BYTES)
    return { reason: 'value_too_large', detail: `${key}: JSON larger than ${TELEMETRY_JSON_MAX_BYTES} bytes` };
  return null;
}

const utf8 = new TextEncoder();

function mismatch(key: string, type: TNonNumericValueType, value: unknown): TValueRefusal {
  const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const wanted = type === 'json' ? 'a JSON object or array' : `a ${type}`;
  return { reason: 'malformed', detail: `${key}: takes ${wanted}, got ${got}` };
}

/** Whether `value` (an object or array) nests more than `max` levels deep; stops as soon as it does. */
function jsonDepthOver(value: object, max: number): boolean {
  if (max <= 0) return true;
  for (const child of Object.values(value)) {
    if (typeof child === 'object' && child !== null && jsonDepthOver(child, max - 1)) return true;
  }
  return false;
}
