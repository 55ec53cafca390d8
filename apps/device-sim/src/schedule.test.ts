import { describe, expect, it } from 'vitest';
import { applyConfig, dueKeys, initialSchedule, tickMs } from './schedule.js';

const keys = ['temperature', 'humidity', 'current'];

describe('simulator schedule', () => {
  it('starts with every key at the base period', () => {
    expect([...initialSchedule(keys, 1000)]).toEqual([
      ['temperature', 1000],
      ['humidity', 1000],
      ['current', 1000],
    ]);
  });

  it('applies a changed uploadPeriodMs to that key only', () => {
    const s = applyConfig(initialSchedule(keys, 1000), { version: 2, sensors: [{ key: 'humidity', enabled: true, uploadPeriodMs: 5000 }] });
    expect(s.get('humidity')).toBe(5000);
    expect(s.get('temperature')).toBe(1000);
  });

  it('stops a disabled key or one with period 0, and adds a key the config names', () => {
    const s = applyConfig(initialSchedule(keys, 1000), {
      version: 3,
      sensors: [
        { key: 'temperature', enabled: false, uploadPeriodMs: 1000 },
        { key: 'current', enabled: true, uploadPeriodMs: 0 },
        { key: 'pressure', enabled: true, uploadPeriodMs: 2000 },
      ],
    });
    expect([...s.keys()].sort()).toEqual(['humidity', 'pressure']);
  });

  it('publishes a key when its period has passed', () => {
    const s = applyConfig(initialSchedule(keys, 1000), { version: 1, sensors: [{ key: 'humidity', enabled: true, uploadPeriodMs: 5000 }] });
    const last = new Map([
      ['temperature', 0],
      ['humidity', 0],
      ['current', 0],
    ]);
    expect(dueKeys(s, last, 1000)).toEqual(['temperature', 'current']);
    expect(dueKeys(s, last, 5000)).toEqual(['temperature', 'humidity', 'current']);
    expect(dueKeys(s, new Map(), 0)).toHaveLength(3);
    expect(tickMs(s, 1000)).toBe(1000);
  });
});
