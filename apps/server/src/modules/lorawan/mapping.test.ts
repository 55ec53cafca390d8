import { describe, expect, it } from 'vitest';
import { mapDecodedPayload, valueAt } from './mapping.js';
import { readNetworkServerEvent } from './uplink-body.js';

describe('mapDecodedPayload', () => {
  const decoded = { temperature: 21.5, status: 'OK', sensor: { x: 1, y: 2, z: 3, w: 4 }, list: [7, 8] };

  it('stores each top-level field under the same key when the mapping is empty, values as they are', () => {
    expect(mapDecodedPayload({ temperature: 21.5, status: 'OK' }, [], 5)).toEqual([
      { key: 'temperature', ts: 5, vs: [21.5] },
      { key: 'status', ts: 5, vs: ['OK'] },
    ]);
  });

  it('reads dot paths, skips fields the uplink lacks, and gathers up to three values of one key in mapping order', () => {
    const mapping = [
      { path: 'temperature', key: 'temp' },
      { path: 'missing.field', key: 'current' },
      { path: 'sensor.z', key: 'vibration' },
      { path: 'sensor.x', key: 'vibration' },
      { path: 'sensor.y', key: 'vibration' },
      { path: 'sensor.w', key: 'vibration' },
      { path: 'list.1', key: 'second' },
    ];
    expect(mapDecodedPayload(decoded, mapping, 9)).toEqual([
      { key: 'temp', ts: 9, vs: [21.5] },
      { key: 'vibration', ts: 9, vs: [3, 1, 2] },
      { key: 'second', ts: 9, vs: [8] },
    ]);
  });

  it('never walks into inherited properties', () => {
    expect(valueAt(decoded, 'temperature.toFixed')).toBeUndefined();
    expect(valueAt(decoded, '__proto__')).toBeUndefined();
  });
});

describe('readNetworkServerEvent', () => {
  it('reads a ChirpStack uplink: upper-cased DevEUI, its time, its object', () => {
    const body = { time: '2022-07-18T09:34:15.775023242+00:00', deviceInfo: { devEui: '0101010101010aBc' }, object: { t: 1 } };
    expect(readNetworkServerEvent('chirpstack', body, 'up')).toEqual({
      event: 'up',
      devEui: '0101010101010ABC',
      receivedAtMs: Date.UTC(2022, 6, 18, 9, 34, 15, 775),
      decoded: { t: 1 },
    });
    expect(readNetworkServerEvent('chirpstack', { deviceInfo: { devEui: '0101' } }, 'up')).toEqual({
      error: expect.stringContaining('devEui'),
    });
    expect(readNetworkServerEvent('chirpstack', body, undefined)).toEqual({ error: expect.stringContaining('event') });
    expect(readNetworkServerEvent('chirpstack', [body], 'up')).toEqual({ error: expect.stringContaining('object') });
  });

  it('reads The Things Stack by its message field; an uplink without a formatter has no decoded payload', () => {
    const ids = { end_device_ids: { dev_eui: '0004A30B001C0530' } };
    expect(readNetworkServerEvent('tts', { ...ids, join_accept: {} }, undefined)).toMatchObject({
      event: 'join_accept',
      devEui: '0004A30B001C0530',
    });
    expect(readNetworkServerEvent('tts', { ...ids, uplink_message: { frm_payload: 'AA==' } }, undefined)).toMatchObject({
      event: 'up',
      decoded: null,
    });
    expect(readNetworkServerEvent('tts', ids, undefined)).toEqual({ error: expect.stringContaining('message') });
  });
});
