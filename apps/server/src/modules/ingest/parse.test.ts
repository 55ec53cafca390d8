import { DEVICE_TS_MAX_AHEAD_MS, DEVICE_TS_MIN_MS, MAX_POINTS_PER_MESSAGE } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { parseDevicePayload } from './parse.js';

const keys = new Set(['temperature', 'vibration']);
const buf = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
/** The server's clock in these tests, and a device timestamp just before it. */
const NOW = 1_767_225_600_000;
const T = NOW - 1000;

describe('parseDevicePayload', () => {
  it('accepts one point or an array of points of known keys', () => {
    expect(parseDevicePayload('telemetry', buf({ key: 'temperature', ts: T, vs: [23.5] }), keys)).toEqual({
      ok: true,
      kind: 'telemetry',
      points: [{ key: 'temperature', ts: T, vs: [23.5] }],
    });
    const many = parseDevicePayload(
      'telemetry',
      buf([
        { key: 'temperature', ts: T, vs: [1] },
        { key: 'vibration', ts: T, vs: [1, 2, 3] },
      ]),
      keys,
    );
    expect(many.ok && many.kind === 'telemetry' && many.points).toHaveLength(2);
  });

  it('refuses bad JSON and bad shapes as malformed', () => {
    expect(parseDevicePayload('telemetry', buf('{nope'), keys)).toMatchObject({ ok: false, reason: 'malformed', count: 1 });
    expect(parseDevicePayload('telemetry', buf({ key: 'temperature', ts: T, vs: [] }), keys)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(parseDevicePayload('telemetry', buf({ key: 'temperature', ts: T, vs: [1, 2, 3, 4] }), keys)).toMatchObject({
      reason: 'malformed',
    });
    expect(parseDevicePayload('telemetry', buf({ key: 'temperature', ts: -5, vs: [1] }), keys)).toMatchObject({ reason: 'malformed' });
  });

  it('refuses a whole message when one key is unknown, counting all its points', () => {
    const r = parseDevicePayload(
      'telemetry',
      buf([
        { key: 'temperature', ts: T, vs: [1] },
        { key: 'nope', ts: T, vs: [1] },
      ]),
      keys,
    );
    expect(r).toMatchObject({ ok: false, reason: 'unknown_key', count: 2 });
  });

  it('refuses more than MAX_POINTS_PER_MESSAGE points', () => {
    const pts = Array.from({ length: MAX_POINTS_PER_MESSAGE + 1 }, (_, i) => ({ key: 'temperature', ts: T + i, vs: [1] }));
    expect(parseDevicePayload('telemetry', buf(pts), keys)).toMatchObject({ ok: false, reason: 'too_many_points', count: pts.length });
  });

  it('refuses a whole message when one timestamp is before 2000 or more than a day ahead, as ts_out_of_range', () => {
    const at = (ts: number) =>
      parseDevicePayload(
        'telemetry',
        buf([
          { key: 'temperature', ts: T, vs: [1] },
          { key: 'temperature', ts, vs: [2] },
        ]),
        keys,
        NOW,
      );
    expect(at(Number.MAX_SAFE_INTEGER)).toMatchObject({ ok: false, reason: 'ts_out_of_range', count: 2 });
    expect(at(NOW + DEVICE_TS_MAX_AHEAD_MS + 1)).toMatchObject({ ok: false, reason: 'ts_out_of_range' });
    expect(at(DEVICE_TS_MIN_MS - 1)).toMatchObject({ ok: false, reason: 'ts_out_of_range' });
    expect(at(1)).toMatchObject({ ok: false, reason: 'ts_out_of_range' });
    expect(at(NOW + DEVICE_TS_MAX_AHEAD_MS)).toMatchObject({ ok: true });
    expect(at(DEVICE_TS_MIN_MS)).toMatchObject({ ok: true });
    expect(parseDevicePayload('status', buf({ ts: Number.MAX_SAFE_INTEGER, value: 1 }), keys, NOW)).toMatchObject({
      ok: false,
      reason: 'ts_out_of_range',
      count: 1,
    });
  });

  it('parses a status word and refuses one over 40 bits', () => {
    expect(parseDevicePayload('status', buf({ ts: T, value: 2 ** 40 - 1 }), keys)).toMatchObject({ ok: true, kind: 'status' });
    expect(parseDevicePayload('status', buf({ ts: T, value: 2 ** 40 }), keys)).toMatchObject({ ok: false, reason: 'malformed' });
  });
});
