/**
 * The simulator speaking ThingsBoard's MQTT device API (docs/protocol.md "ThingsBoard device API (MQTT)"): login with
 * the access token as username and no password, telemetry on `v1/devices/me/telemetry` as
 * `[{"ts":…,"values":{…}}]`. A key of several values (vibration x, y, z) sends its first: ThingsBoard's values are
 * scalars.
 */
import type { TTelemetryPoint } from '@tessera/contracts';
import type { IClientOptions } from 'mqtt';

/** Which device API a simulated device speaks: Tessera's own topics, or ThingsBoard's. */
export type TSimProtocol = 'native' | 'thingsboard';

/** ThingsBoard's telemetry topic. */
export const THINGSBOARD_TELEMETRY_TOPIC = 'v1/devices/me/telemetry';

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
