/**
 * Registers simulated devices through the API (POST /frontstage/v1/projects/{id}/devices/bulk) and answers
 * their credentials (the secret is shown once, so the simulator prints it).
 */
import { randomBytes } from 'node:crypto';
import { paths, ZDeviceRegisteredList, ZTelemetryMetadata } from '@tessera/contracts';
import type { TSimDevice } from './index.js';

/**
 * Registers `count` devices with random serial numbers in project `projectId`; each simulated device publishes
 * the project's enabled telemetry keys (read from the telemetry metadata), since ingest refuses unknown keys.
 * @throws Error with the API's `{code, message}` when registration or the metadata read is refused.
 */
export async function registerDevices(o: { api: string; token: string; projectId: number; count: number }): Promise<TSimDevice[]> {
  const serials = Array.from({ length: o.count }, () => randomBytes(6).toString('hex').toUpperCase());
  const res = await fetch(new URL(paths.projectDevicesBulk(o.projectId), o.api), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${o.token}` },
    body: JSON.stringify({ serial_numbers: serials }),
  });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`registration refused (${res.status}): ${JSON.stringify(body)}`);
  const registered = ZDeviceRegisteredList.parse(body);
  const keys = registered.length > 0 ? await projectKeys(o.api, o.token, registered[0].tangram_id) : [];
  return registered.map((d) => ({ tangramId: d.tangram_id, secret: d.device_secret, keys }));
}

async function projectKeys(api: string, token: string, tangramId: string): Promise<string[]> {
  const url = new URL(paths.tsMetadata, api);
  url.searchParams.set('tangramId', tangramId);
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`reading the project's telemetry keys refused (${res.status}): ${JSON.stringify(body)}`);
  return ZTelemetryMetadata.parse(body)
    .filter((s) => s.enabled)
    .map((s) => s.key);
}
