import { MAX_POINTS_PER_MESSAGE } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { parseDevicePayload } from './parse.js';

const keys = new Set(['temperature', 'vibration']);
const buf = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));

describe('parseDevicePayload', () => {
  it('accepts one point or an array of points of known keys', () => {
    expect(parseDevicePayload('telemetry', buf({ key: 'temperature', ts: 1, vs: [23.5] }), keys)).toEqual({
      ok: true,
      kind: 'telemetry',
      points: [{ key: 'temperature', ts: 1, vs: [23.5] }],
    });
    const many = parseDevicePayload(
      'telemetry',
      buf([
        { key: 'temperature', ts: 1, vs: [1] },
        { key: 'vibration', ts: 1, vs: [1, 2, 3] },
      ]),
      keys,
    );
    expect(many.ok && many.kind === 'telemetry' && many.points).toHaveLength(2);
  });

  it('refuses bad JSON and bad shapes as malformed', () => {
    expect(parseDevicePayload('telemetry', buf('{nope'), keys)).toMatchObject({ ok: false, reason: 'malformed', count: 1 });
    expect(parseDevicePayload('telemetry', buf({ key: 'temperature', ts: 1, vs: [] }), keys)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(parseDevicePayload('telemetry', buf({ key: 'temperature', ts: 1, vs: [1, 2, 3, 4] }), keys)).toMatchObject({
      reason: 'malformed',
    });
    expect(parseDevicePayload('telemetry', buf({ key: 'temperature', ts: -5, vs: [1] }), keys)).toMatchObject({ reason: 'malformed' });
  });

  it('refuses a whole message when one key is unknown, counting all its points', () => {
    const r = parseDevicePayload(
      'telemetry',
      buf([
        { key: 'temperature', ts: 1, vs: [1] },
        { key: 'nope', ts: 1, vs: [1] },
      ]),
      keys,
    );
    expect(r).toMatchObject({ ok: false, reason: 'unknown_key', count: 2 });
  });

  it('refuses more than MAX_POINTS_PER_MESSAGE points', () => {
    const pts = Array.from({ length: MAX_POINTS_PER_MESSAGE + 1 }, (_, i) => ({ key: 'temperature', ts: i + 1, vs: [1] }));
    expect(parseDevicePayload('telemetry', buf(pts), keys)).toMatchObject({ ok: false, reason: 'too_many_points', count: pts.length });
  });

  it('parses a status word and refuses one over 40 bits', () => {
    expect(parseDevicePayload('status', buf({ ts: 5, value: 2 ** 40 - 1 }), keys)).toMatchObject({ ok: true, kind: 'status' });
    expect(parseDevicePayload('status', buf({ ts: 5, value: 2 ** 40 }), keys)).toMatchObject({ ok: false, reason: 'malformed' });
  });
});
