import type { TDeviceTwin } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { mergeLatest, pointsOfTwin, readInbound, telemetryMessage, type TPagePoint } from './pageMessages';

const twin: TDeviceTwin = {
  tangramId: 'T1',
  telemetry: [{ key: 'temperature', ts: 10, svc_recv_ts: 11, vs: [21.5] }],
  status: { value: 5, ts: 12, binary: '101', decoded: [] },
};

describe('custom page messages', () => {
  it('turns the twin into points, the status word as $status', () => {
    expect(pointsOfTwin(twin)).toEqual([
      { key: 'temperature', ts: 10, vs: [21.5] },
      { key: '$status', ts: 12, vs: [5] },
    ]);
    expect(pointsOfTwin(null)).toEqual([]);
  });

  it('keeps the newest point per key', () => {
    const latest = new Map<string, TPagePoint>();
    mergeLatest(latest, [{ key: 'a', ts: 5, vs: [1] }]);
    mergeLatest(latest, [
      { key: 'a', ts: 4, vs: [0] },
      { key: 'b', ts: 1, vs: [2] },
    ]);
    expect([...latest.values()]).toEqual([
      { key: 'a', ts: 5, vs: [1] },
      { key: 'b', ts: 1, vs: [2] },
    ]);
    mergeLatest(latest, [{ key: 'a', ts: 6, vs: [3, null] }]);
    expect(latest.get('a')).toEqual({ key: 'a', ts: 6, vs: [3, null] });
  });

  it('builds the documented telemetry message', () => {
    const device = { tangram_id: 'T1', name: 'Boiler', nickname: '' };
    expect(telemetryMessage(device, [{ key: 'a', ts: 1, vs: [1] }])).toEqual({
      type: 'tessera:telemetry',
      device,
      list: [{ key: 'a', ts: 1, vs: [1] }],
    });
  });

  it('accepts only ready and bounded resize requests', () => {
    expect(readInbound({ type: 'tessera:ready' })).toEqual({ type: 'tessera:ready' });
    expect(readInbound({ type: 'tessera:resize', height: 640 })).toEqual({ type: 'tessera:resize', height: 640 });
    for (const bad of [
      null,
      'tessera:ready',
      { type: 'tessera:resize', height: 1e9 },
      { type: 'tessera:telemetry', list: [] },
      { type: 'logout' },
    ]) {
      expect(readInbound(bad)).toBeNull();
    }
  });
});
