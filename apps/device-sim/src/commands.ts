/**
 * How a simulated device answers remote-control commands (docs/protocol.md "Commands"): `getDeviceInfo` reports
 * firmware, uptime, RSSI and its sensors with their upload periods; `sensorCommand` `{ key, action: "read" }`
 * samples the key now. Anything else is answered `{ ok: false, error }`, as firmware refusing a command would.
 */
import {
  type TDeviceInfoReply,
  type ZDeviceCommandReply,
  SENSOR_READ_ACTION,
  ZDeviceCommand,
  ZSensorCommandParams,
} from '@tessera/contracts';
import type { TRandom, TVibrationProfile } from './generators.js';
import { valuesOf } from './generators.js';
import type { TSchedule } from './schedule.js';

/** A command reply on the wire (ZDeviceCommandReply). */
export type TCommandReply = (typeof ZDeviceCommandReply)['_output'];

/** The simulator's firmware version, reported by getDeviceInfo. */
export const SIM_FIRMWARE_VERSION = 'tessera-sim/1.0.0';

/** What a device knows when it answers. `keys` are all its sensors; `schedule` the ones publishing and their periods. */
export interface TCommandState {
  keys: readonly string[];
  schedule: TSchedule;
  /** When the device started, epoch ms. */
  startedAt: number;
  /** Its link's signal strength, dBm. */
  rssiDbm: number;
  rnd: TRandom;
  /** How its vibration behaves; `steady` when absent. */
  vibrationProfile?: TVibrationProfile;
}

/** The getDeviceInfo result of a device in `state` at `nowMs`. */
export function deviceInfo(state: TCommandState, nowMs: number): TDeviceInfoReply {
  return {
    firmwareVersion: SIM_FIRMWARE_VERSION,
    uptimeMs: Math.max(0, nowMs - state.startedAt),
    rssiDbm: state.rssiDbm,
    sensors: state.keys.map((key) => ({ key, enabled: state.schedule.has(key), uploadPeriodMs: state.schedule.get(key) ?? 0 })),
  };
}

/** The reply to `payload` (a command's JSON, unchecked) from a device in `state` at `nowMs`. */
export function answerCommand(payload: unknown, state: TCommandState, nowMs: number): TCommandReply {
  const command = ZDeviceCommand.safeParse(payload);
  if (!command.success) return { ok: false, error: 'unreadable command' };
  const { name, params } = command.data;
  if (name === 'getDeviceInfo') return { ok: true, result: deviceInfo(state, nowMs) };
  if (name !== 'sensorCommand') return { ok: false, error: `unknown command ${name}` };
  const p = ZSensorCommandParams.safeParse(params);
  if (!p.success) return { ok: false, error: 'sensorCommand needs { key, action }' };
  if (!state.keys.includes(p.data.key)) return { ok: false, error: `unknown sensor key ${p.data.key}` };
  if (p.data.action !== SENSOR_READ_ACTION) return { ok: false, error: `unknown action ${p.data.action}` };
  return { ok: true, result: { key: p.data.key, ts: nowMs, vs: valuesOf(p.data.key, nowMs, state.rnd, state.vibrationProfile) } };
}
