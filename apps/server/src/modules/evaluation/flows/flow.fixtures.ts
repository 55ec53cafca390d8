/** Fakes of the platform-rule unit tests: a device and effects that record what a run asked of them. */
import type { TTelemetryValue } from '@tessera/contracts';
import type { TFlowDevice, TFlowEffects } from './effects.js';

/** The device of the unit tests' runs. */
export const DEVICE: TFlowDevice = { id: 1, tangramId: 'T1', tenantId: 1, projectId: 1, productId: 1 };

/**
 * Effects that answer fixed figures and log each call in `calls`; `previous` is what previousValue answers (the
 * device's previous value of any key).
 */
export function fakeEffects(previous: TTelemetryValue | null = null): TFlowEffects & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    device: async () => DEVICE,
    devicesIn: async () => [DEVICE, { ...DEVICE, id: 2, tangramId: 'T2' }],
    aggregate: async (_d, key, _s, fn) => {
      calls.push(`aggregate ${fn} ${key}`);
      return 25;
    },
    aggregatePlatform: async (id, fn) => {
      calls.push(`aggregatePlatform ${fn} ${id}`);
      return id === 7 ? 1.32 : null;
    },
    previousValue: async (_d, key) => {
      calls.push(`previousValue ${key}`);
      return previous;
    },
    health: async () => ({ online: true, lastSeen: 900, status: 7 }),
    raiseAlert: async (a) => {
      calls.push(`alert ${a.level} ${a.message}`);
      return { alertId: 11, opened: true };
    },
    notify: async (n) => {
      calls.push(`notify ${n.message} alert=${n.alertId} opened=${n.alertOpened}`);
      return 'queued';
    },
    command: async (_n, d) => {
      calls.push(`command ${d.tangramId}`);
      return { tangramId: d.tangramId, outcome: 'ok', result: 1, error: null };
    },
    scheduleCommands: async (s) => {
      calls.push(`schedule ${s.devices.length} devices`);
      return { nextAt: s.startAt };
    },
  };
}
