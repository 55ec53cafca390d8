import { STATUS_LIVE_KEY, type TDeviceTwin, type TStatusGroup } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { mergeLiveMessage, toStatusRows, toTelemetryCards } from './twin';

const ID = 'A'.repeat(8);
const groups: TStatusGroup[] = [
  {
    name: 'power',
    index: 0,
    bytesLength: 1,
    values: [
      { value: 0, label: 'off' },
      { value: 1, label: 'on' },
    ],
  },
  { name: 'mode', index: 4, bytesLength: 4, values: [{ value: 2, label: 'auto' }] },
];
const twin: TDeviceTwin = {
  tangramId: ID,
  telemetry: [{ key: 'temp', ts: 1_000, svc_recv_ts: 1_001, vs: [20.5] }],
  status: null,
};
const msg = (list: { key: string; ts: number; vs: (number | null)[] }[]) => ({ topic: `live/devices/${ID}`, list });

describe('mergeLiveMessage', () => {
  it('replaces a key with a newer point and stamps the receive time', () => {
    const out = mergeLiveMessage(twin, msg([{ key: 'temp', ts: 2_000, vs: [21] }]), ID, groups, 5_000);
    expect(out.telemetry).toEqual([{ key: 'temp', ts: 2_000, svc_recv_ts: 5_000, vs: [21] }]);
    expect(twin.telemetry[0].vs).toEqual([20.5]);
  });

  it('keeps the held point when the live one is older (a late message after the fetch)', () => {
    const out = mergeLiveMessage(twin, msg([{ key: 'temp', ts: 500, vs: [1] }]), ID, groups, 5_000);
    expect(out.telemetry[0].vs).toEqual([20.5]);
  });

  it('adds a key the twin did not have, and builds a twin when none is cached', () => {
    const out = mergeLiveMessage(undefined, msg([{ key: 'hum', ts: 3, vs: [40, null] }]), ID, groups, 9);
    expect(out).toEqual({ tangramId: ID, telemetry: [{ key: 'hum', ts: 3, svc_recv_ts: 9, vs: [40, null] }], status: null });
  });

  it('decodes a $status point by the status groups', () => {
    // 0b0010_0001: power (bit 0) = 1 → on, mode (bits 7–4) = 2 → auto
    const out = mergeLiveMessage(twin, msg([{ key: STATUS_LIVE_KEY, ts: 2_000, vs: [0b0010_0001] }]), ID, groups, 1);
    expect(out.status?.value).toBe(33);
    expect(out.status?.binary).toBe(`${'0'.repeat(32)}00100001`);
    expect(out.status?.decoded.map((d) => [d.name, d.raw, d.label])).toEqual([
      ['power', 1, 'on'],
      ['mode', 2, 'auto'],
    ]);
    expect(out.telemetry.some((t) => t.key === STATUS_LIVE_KEY)).toBe(false);
  });

  it('ignores a status value outside 40 bits or an older status', () => {
    const withStatus = mergeLiveMessage(twin, msg([{ key: STATUS_LIVE_KEY, ts: 2_000, vs: [1] }]), ID, groups, 1);
    const bad = mergeLiveMessage(withStatus, msg([{ key: STATUS_LIVE_KEY, ts: 3_000, vs: [2 ** 40] }]), ID, groups, 1);
    expect(bad.status?.value).toBe(1);
    const older = mergeLiveMessage(withStatus, msg([{ key: STATUS_LIVE_KEY, ts: 1_000, vs: [0] }]), ID, groups, 1);
    expect(older.status?.value).toBe(1);
  });
});

describe('toStatusRows', () => {
  it('gives name, bit range counted from the right, binary slice, label and raw per line', () => {
    const out = mergeLiveMessage(twin, msg([{ key: STATUS_LIVE_KEY, ts: 1, vs: [0b0101_0000] }]), ID, groups, 1);
    expect(toStatusRows(out.status)).toEqual([
      { name: 'power', bits: '0', binary: '0', label: 'off', raw: 0 },
      { name: 'mode', bits: '7–4', binary: '0101', label: null, raw: 5 },
    ]);
  });
  it('is empty without a status', () => {
    expect(toStatusRows(null)).toEqual([]);
  });
});

describe('toTelemetryCards', () => {
  const sensors = [
    { key: 'temp', name: 'Temperature', unit: '°C', enabled: true },
    { key: 'hum', name: 'Humidity', unit: '%', enabled: true },
    { key: 'off', name: 'Disabled', unit: '', enabled: false },
  ];
  it('lists enabled sensors with their latest point, then unknown reported keys', () => {
    const cards = toTelemetryCards(sensors, [...twin.telemetry, { key: 'x', ts: 1, svc_recv_ts: 1, vs: [1] }]);
    expect(cards.map((c) => [c.key, c.name, c.unit, c.latest?.vs ?? null])).toEqual([
      ['temp', 'Temperature', '°C', [20.5]],
      ['hum', 'Humidity', '%', null],
      ['x', 'x', '', [1]],
    ]);
  });
  it('shows a disabled sensor only when it reported a value', () => {
    const cards = toTelemetryCards(sensors, [{ key: 'off', ts: 1, svc_recv_ts: 1, vs: [0] }]);
    expect(cards.map((c) => c.key)).toEqual(['temp', 'hum', 'off']);
  });
});
