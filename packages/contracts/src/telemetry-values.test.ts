import { describe, expect, it } from 'vitest';
import { TELEMETRY_JSON_MAX_BYTES, TELEMETRY_JSON_MAX_DEPTH, TELEMETRY_STRING_MAX_CHARS } from './limits.js';
import { checkTelemetryValue } from './telemetry-values.js';

/** An object nested `depth` levels deep (`{}` is one). */
function nested(depth: number): object {
  let v: object = {};
  for (let i = 1; i < depth; i += 1) v = { d: v };
  return v;
}

describe('checkTelemetryValue', () => {
  it('takes a value of the key type within its bounds, at the bounds themselves', () => {
    expect(checkTelemetryValue('s', 'string', 'x'.repeat(TELEMETRY_STRING_MAX_CHARS))).toBeNull();
    expect(checkTelemetryValue('s', 'string', '')).toBeNull();
    expect(checkTelemetryValue('b', 'boolean', false)).toBeNull();
    expect(checkTelemetryValue('j', 'json', nested(TELEMETRY_JSON_MAX_DEPTH))).toBeNull();
    expect(checkTelemetryValue('j', 'json', [1, 'a', null])).toBeNull();
    // {"a":"…"} is 8 bytes around the string
    expect(checkTelemetryValue('j', 'json', { a: 'x'.repeat(TELEMETRY_JSON_MAX_BYTES - 8) })).toBeNull();
  });

  it('refuses another type as malformed, naming the key and both types; nothing is coerced', () => {
    expect(checkTelemetryValue('s', 'string', 25)).toEqual({ reason: 'malformed', detail: 's: takes a string, got number' });
    expect(checkTelemetryValue('b', 'boolean', 'true')).toEqual({ reason: 'malformed', detail: 'b: takes a boolean, got string' });
    expect(checkTelemetryValue('j', 'json', null)).toEqual({ reason: 'malformed', detail: 'j: takes a JSON object or array, got null' });
    expect(checkTelemetryValue('j', 'json', '{"a":1}')?.reason).toBe('malformed');
    expect(checkTelemetryValue('s', 'string', ['a'])?.detail).toBe('s: takes a string, got array');
  });

  it('refuses a value over its bounds as value_too_large', () => {
    expect(checkTelemetryValue('s', 'string', 'x'.repeat(TELEMETRY_STRING_MAX_CHARS + 1))?.reason).toBe('value_too_large');
    expect(checkTelemetryValue('j', 'json', nested(TELEMETRY_JSON_MAX_DEPTH + 1))).toEqual({
      reason: 'value_too_large',
      detail: `j: JSON nested deeper than ${TELEMETRY_JSON_MAX_DEPTH} levels`,
    });
    expect(checkTelemetryValue('j', 'json', { a: 'x'.repeat(TELEMETRY_JSON_MAX_BYTES - 7) })?.reason).toBe('value_too_large');
    // bytes, not characters: 'é' is two bytes in UTF-8
    expect(checkTelemetryValue('j', 'json', { a: 'é'.repeat(TELEMETRY_JSON_MAX_BYTES / 2) })?.reason).toBe('value_too_large');
  });
});
