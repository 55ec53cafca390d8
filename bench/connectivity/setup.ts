/**
 * What bench/connectivity needs in the server's database: every device with an access token; the first devices for
 * the MQTT ways, then the devices behind one gateway (a device of the same project marked `is_gateway`), the rest
 * posting over HTTP; and LoRaWAN projects (each at most MAX_LORAWAN_INTEGRATIONS_PER_PROJECT ChirpStack integrations
 * mapping `temperature`, its devices with DevEUIs; BENCH_LORAWAN_MQTT_PROJECTS more whose integrations read
 * ChirpStack's MQTT integration on the bench's Mosquitto). Tokens and DevEUIs are written directly (the routes' own
 * writes, without a request each); integrations through the console API, which answers their secrets.
 */
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { lorawanPaths, MAX_LORAWAN_INTEGRATIONS_PER_PROJECT, type TLorawanIntegrationWithSecret } from '@tessera/contracts';
import { deviceAccessTokens, deviceLorawan, devices, lorawanIntegrations } from '@tessera/server';
import { buildDeviceProject } from '@tessera/server/testing';
import type { TBenchServer } from '../support/bench-server.js';
import type { TLoadDevice, TLoadSetup } from './load.js';

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** How many devices of each kind, and how many LoRaWAN projects. */
export interface TConnectivityShape {
  mqttDevices: number;
  gatewayDevices: number;
  httpDevices: number;
  lorawanProjects: number;
  lorawanDevicesPerProject: number;
  /** Projects whose ten integrations read ChirpStack's MQTT integration at `lorawanBrokerUrl` (none when unset). */
  lorawanMqttProjects?: number;
  inFlight: number;
}

/** Issues an access token for each of `built` (stored as the credentials route stores it). */
async function issueTokens(bench: TBenchServer, built: { id: number }[]): Promise<string[]> {
  const tokens = built.map(() => randomBytes(32).toString('base64url'));
  const rows = built.map((d, i) => {
    const token = tokens[i] as string;
    return { deviceId: d.id, tokenHash: sha256(token), tokenLast4: token.slice(-4), issuedAt: Date.now() };
  });
  for (let i = 0; i < rows.length; i += 500) await bench.database.db.insert(deviceAccessTokens).values(rows.slice(i, i + 500));
  return tokens;
}

/**
 * Creates the devices, tokens, gateway and integrations on `bench` (its project holds the MQTT and HTTP devices);
 * answers what the load process needs, but the ports (`gateway` null when the server has no gateway API).
 */
export async function buildConnectivitySetup(
  bench: TBenchServer,
  shape: TConnectivityShape,
  lorawanBrokerUrl?: string,
): Promise<Omit<TLoadSetup, 'mqttPort' | 'httpPort' | 'lorawanPort' | 'httpClient'>> {
  const db = bench.database.db;
  const { project } = bench;
  const mainDevices = project.devices;
  const tokens = await issueTokens(bench, mainDevices);
  let n = 0;
  const asLoad = (i: number): TLoadDevice => {
    const d = mainDevices[i] as { tangramId: string; secret: string };
    return { n: i, tangramId: d.tangramId, secret: d.secret, token: tokens[i] as string };
  };
  const mqttDevices = Array.from({ length: shape.mqttDevices }, (_, i) => asLoad(i));
  n = shape.mqttDevices;

  let gateway: TLoadSetup['gateway'] = null;
  const gw = n;
  // Marked as a gateway through the console route; a build without the gateway API has no such route.
  const marked = await bench.server.app.inject({
    method: 'PUT',
    url: `/frontstage/v1/devices/${(mainDevices[gw] as { tangramId: string }).tangramId}/gateway`,
    headers: { authorization: `Bearer ${bench.token}` },
    payload: { is_gateway: true },
  });
  if (marked.statusCode === 200) {
    const behind: { n: number; name: string }[] = [];
    for (let i = gw + 1; i <= gw + shape.gatewayDevices; i += 1) {
      const name = `bench-child-${i}`;
      await db
        .update(devices)
        .set({ name })
        .where(eq(devices.id, (mainDevices[i] as { id: number }).id));
      behind.push({ n: i, name });
    }
    gateway = { token: tokens[gw] as string, devices: behind };
  }
  n += 1 + shape.gatewayDevices;
  const httpDevices = Array.from({ length: shape.httpDevices }, (_, i) => asLoad(n + i));
  n += shape.httpDevices;

  /** A project of LoRaWAN devices with DevEUIs and its integrations, each given a share of its devices. */
  const lorawanProject = async (integration: (k: number) => Record<string, unknown>) => {
    const built = await buildDeviceProject(db, { tenantId: project.tenantId, count: shape.lorawanDevicesPerProject });
    const euis = built.devices.map(() => randomBytes(8).toString('hex').toUpperCase());
    await db
      .insert(deviceLorawan)
      .values(built.devices.map((d, i) => ({ deviceId: d.id, tenantId: project.tenantId, devEui: euis[i] as string })));
    const projectDevices = built.devices.map((_, i) => ({ n: n + i, devEui: euis[i] as string }));
    n += built.devices.length;
    const made: { created: TLorawanIntegrationWithSecret; devices: { n: number; devEui: string }[] }[] = [];
    for (let k = 0; k < MAX_LORAWAN_INTEGRATIONS_PER_PROJECT; k += 1) {
      const res = await bench.server.app.inject({
        method: 'POST',
        url: lorawanPaths.list(built.projectId),
        headers: { authorization: `Bearer ${bench.token}` },
        payload: {
          name: `bench ${k}`,
          network_server: 'chirpstack',
          mapping: [{ path: 'temperature', key: 'temperature' }],
          ...integration(k),
        },
      });
      if (res.statusCode !== 201) throw new Error(`integration not created: ${res.statusCode} ${res.body}`);
      // Each integration takes a share of the project's devices, so one uplink names one device of its own project.
      made.push({
        created: res.json() as TLorawanIntegrationWithSecret,
        devices: projectDevices.filter((_, i) => i % MAX_LORAWAN_INTEGRATIONS_PER_PROJECT === k),
      });
    }
    return made;
  };
  const lorawan: TLoadSetup['lorawan'] = [];
  for (let p = 0; p < shape.lorawanProjects; p += 1) {
    for (const { created, devices: d } of await lorawanProject(() => ({})))
      lorawan.push({ path: created.webhook_path, secret: created.secret, devices: d });
  }
  const apps: NonNullable<TLoadSetup['lorawanMqtt']>['apps'] = [];
  for (let p = 0; lorawanBrokerUrl && p < (shape.lorawanMqttProjects ?? 0); p += 1) {
    const made = await lorawanProject((k) => ({
      transport: 'mqtt',
      mqtt: { url: lorawanBrokerUrl, username: 'tessera', password: 'bench-tessera', application_id: `bench-app-${p}-${k}` },
    }));
    for (const { created, devices: d } of made) apps.push({ applicationId: created.mqtt?.application_id as string, devices: d });
  }
  // The integrations over MQTT are consumed once every one is subscribed.
  for (let waited = 0; apps.length > 0; waited += 100) {
    const rows = await db
      .select({ state: lorawanIntegrations.mqttState })
      .from(lorawanIntegrations)
      .where(eq(lorawanIntegrations.transport, 'mqtt'));
    if (rows.length === apps.length && rows.every((r) => r.state === 'connected')) break;
    if (waited > 30_000) throw new Error('the LoRaWAN MQTT integrations did not connect within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const lorawanMqtt =
    lorawanBrokerUrl && apps.length > 0 ? { url: lorawanBrokerUrl, username: 'chirpstack', password: 'bench-chirpstack', apps } : null;
  return { mqttDevices, gateway, httpDevices, lorawan, lorawanMqtt, deviceCount: n, inFlight: shape.inFlight };
}
