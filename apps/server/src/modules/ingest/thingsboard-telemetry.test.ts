import { MAX_POINTS_PER_MESSAGE } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { parseDevicePayload } from './parse.js';
import { thingsboardTelemetryToNative } from './thingsboard-telemetry.js';

const NOW = Date.UTC(2026, 10, 27, 12);
const keys = new Set(['temperature', 'humidity']);
const parse = (payload: unknown) =>
  parseDevicePayload(
    'telemetry',
    thingsboardTelemetryToNative(Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)), NOW),
    keys,
    NOW,
  );

describe('ThingsBoard telemetry rewritten into native points', () => {
  it('stamps the flat form with the receive time, keeps ts of the timestamped form, takes arrays of both', () => {
    expect(parse({ temperature: 25, humidity: 60.5 })).toEqual({
      ok: true,
      kind: 'telemetry',
      points: [
        { key: 'temperature', ts: NOW, vs: [25] },
        { key: 'humidity', ts: NOW, vs: [60.5] },
      ],
    });
    expect(parse({ ts: NOW - 5, values: { temperature: 1 } })).toMatchObject({
      ok: true,
      points: [{ key: 'temperature', ts: NOW - 5, vs: [1] }],
    });
    expect(parse([{ ts: NOW - 2, values: { humidity: 2 } }, { temperature: 3 }])).toMatchObject({
      ok: true,
      points: [
        { key: 'humidity', ts: NOW - 2 },
        { key: 'temperature', ts: NOW },
      ],
    });
  });

  it('reads an object with ts, values and more as the flat form (as ThingsBoard does)', () => {
    expect(parse({ ts: NOW, values: { temperature: 1 }, humidity: 2 })).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('refuses what the native parser refuses, with its reasons', () => {
    expect(parse('{"temperature": ')).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parse([])).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parse({})).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parse(42)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parse({ temperature: 'warm' })).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parse({ temperature: true })).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parse({ temperature: null })).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parse({ ts: 'now', values: { temperature: 1 } })).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parse({ ts: NOW, values: 3 })).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parse({ pressure: 1013 })).toMatchObject({ ok: false, reason: 'unknown_key' });
    expect(parse({ ts: NOW + 3_600_000, values: { temperature: 1 } })).toMatchObject({ ok: false, reason: 'ts_out_of_range' });
    const many = Object.fromEntries(Array.from({ length: MAX_POINTS_PER_MESSAGE + 1 }, (_, i) => [`k${i}`, i]));
    expect(parse(many)).toMatchObject({ ok: false, reason: 'too_many_points', count: MAX_POINTS_PER_MESSAGE + 1 });
  });
});
