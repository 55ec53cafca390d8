/**
 * The simulator speaking ThingsBoard's MQTT device API (docs/protocol.md "ThingsBoard device API (MQTT)"): login with
 * the access token as username and no password, telemetry on `v1/devices/me/telemetry` as
 * `[{"ts":…,"values":{…}}]` (a key of several values — vibration x, y, z — sends its first: ThingsBoard's values are
 * scalars), its client attributes once connected on `v1/devices/me/attributes`, and answers to the platform's RPC
 * (its remote-control commands) from `v1/devices/me/rpc/request/{n}` on `v1/devices/me/rpc/response/{n}`.
 */
import type { TTelemetryPoint } from '@tessera/contracts';
import type { IClientOptions } from 'mqtt';
import { answerCommand, SIM_FIRMWARE_VERSION, type TCommandState } from './commands.js';

/** Which device API a simulated device speaks: Tessera's own topics, or ThingsBoard's. */
export type TSimProtocol = 'native' | 'thingsboard';

/** ThingsBoard's telemetry topic. */
export const THINGSBOARD_TELEMETRY_TOPIC = 'v1/devices/me/telemetry';
/** ThingsBoard's client attributes topic. */
export const THINGSBOARD_ATTRIBUTES_TOPIC = 'v1/devices/me/attributes';
/** Where ThingsBoard sends RPC requests (`…/request/{n}`); answers go to `v1/devices/me/rpc/response/{n}`. */
export const THINGSBOARD_RPC_REQUEST_FILTER = 'v1/devices/me/rpc/request/+';

/** The client attributes a simulated device reports: its firmware, its sensors and its seed. */
export function thingsboardClientAttributes(keys: readonly string[], seed: number): Record<string, string | number> {
  return { firmware: SIM_FIRMWARE_VERSION, sensors: keys.join(','), seed };
}

/**
 * The answer topic and payload to an RPC request received on `topic` (`v1/devices/me/rpc/request/{n}`) with `payload`
 * `{ method, params }`: the command's result itself, or `{ error }` — or null for a topic that is not a request.
 */
export function thingsboardRpcAnswer(
  topic: string,
  payload: unknown,
  state: TCommandState,
  nowMs: number,
): { topic: string; body: string } | null {
  const n = /^v1\/devices\/me\/rpc\/request\/([^/]+)$/.exec(topic)?.[1];
  if (!n) return null;
  const req = (typeof payload === 'object' && payload !== null ? payload : {}) as { method?: unknown; params?: unknown };
  const reply = answerCommand({ name: req.method, params: req.params ?? {} }, state, nowMs);
  return { topic: `v1/devices/me/rpc/response/${n}`, body: JSON.stringify(reply.ok ? reply.result : { error: reply.error }) };
}

/** MQTT options of a ThingsBoard login with `token`; `seed` names the client id (any id is taken). */
export function thingsboardLogin(token: string, seed: number): IClientOptions {
  return { username: token, clientId: `tessera-sim-${seed}` };
}

/** `points` as ThingsBoard's timestamped telemetry: one `{ ts, values }` per timestamp, in order of appearance. */
export function thingsboardTelemetry(points: readonly TTelemetryPoint[]): { ts: number; values: Record<string, number> }[] {
  const byTs = new Map<number, Record<string, number>>();
  for (const p of points) {
    const values = byTs.get(p.ts) ?? {};
    values[p.key] = p.vs[0];
    byTs.set(p.ts, values);
  }
  return [...byTs].map(([ts, values]) => ({ ts, values }));
}
