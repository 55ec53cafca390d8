/**
 * The webhook's cached look-ups (lorawan-cache.ts) across two replicas on one database: after a change made through
 * one replica's console API, the other replica — whose cache holds the old integration or DevEUI — acts on the new
 * one within the notification's delay, far under the cache's TTL; and the batched payload log and counters are
 * what the console reads.
 */
import {
  LORAWAN_SECRET_HEADER,
  lorawanPaths,
  type TLorawanIntegration,
  type TLorawanIntegrationList,
  type TLorawanIntegrationWithSecret,
  type TLorawanUplinkLog,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildLorawanWebhook, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { telemetryCount } from '../ingest/ingest-test-kit.js';
import { LORAWAN_CACHE_TTL_MS } from './lorawan-cache.js';
import { UPLINK_LOG_FLUSH_MS } from './uplink-log.js';

const EUI = '70B3D57ED0000001';
/** How soon the other replica must act on a change: the notification's delay, far under the cache's TTL. */
const NOTIFIED_WITHIN_MS = 5_000;

describe(`LoRaWAN webhook caches across replicas (${TEST_DB_KIND})`, () => {
  let a: TTestServer;
  let b: TTestServer;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  let integration: TLorawanIntegrationWithSecret;
  let seq = 0;

  /** One ChirpStack uplink of `temperature` for EUI to `server`; answers the status. */
  const uplink = async (server: TTestServer, secret: string) => {
    seq += 1;
    const body = {
      deduplicationId: `cache-${seq}`,
      time: new Date(Date.now() - 60_000 + seq).toISOString(),
      deviceInfo: { deviceName: 'node', devEui: EUI.toLowerCase() },
      fPort: 1,
      data: 'AOE=',
      object: { temperature: 20 + seq },
    };
    const res = await fetch(`${server.httpUrl}${integration.webhook_path}?event=up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [LORAWAN_SECRET_HEADER]: secret },
      body: JSON.stringify(body),
    });
    return res.status;
  };
  /** The status `server` answers once it differs from `from`, polled for at most `withinMs`. */
  const settlesTo = async (probe: () => Promise<number>, from: number, withinMs: number) => {
    const until = Date.now() + withinMs;
    let status = await probe();
    while (status === from && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      status = await probe();
    }
    return status;
  };
  const setEui = (tangramId: string, devEui: string | null) =>
    a.api('PUT', lorawanPaths.device(tangramId), { token: vendor.token, body: { dev_eui: devEui } });

  beforeAll(async () => {
    a = await startTestServer();
    b = await startTestServer({}, a.database);
    vendor = await buildVendor(a);
    project = await buildDeviceProject(a.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    integration = await buildLorawanWebhook(a, vendor.token, {
      projectId: project.projectId,
      tangramId: project.devices[0].tangramId,
      devEui: EUI,
      integration: { name: 'cached' },
    });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('refuses a rotated secret on the other replica, whose cache held the old one, well within the TTL', async () => {
    expect(await uplink(b, integration.secret)).toBe(200);
    const rotated = await a.api<TLorawanIntegrationWithSecret>('POST', lorawanPaths.secret(project.projectId, integration.id), {
      token: vendor.token,
    });
    expect(rotated.status).toBe(200);
    // On the replica that rotated: at once.
    expect(await uplink(a, integration.secret)).toBe(401);
    const started = Date.now();
    expect(await settlesTo(() => uplink(b, integration.secret), 200, NOTIFIED_WITHIN_MS)).toBe(401);
    expect(Date.now() - started).toBeLessThan(NOTIFIED_WITHIN_MS);
    expect(NOTIFIED_WITHIN_MS).toBeLessThan(LORAWAN_CACHE_TTL_MS / 10);
    integration = rotated.body;
    expect(await uplink(b, integration.secret)).toBe(200);
  });

  it('stores a DevEUI moved to another device for the new device, on both replicas', async () => {
    const [first, second] = project.devices;
    expect(await uplink(b, integration.secret)).toBe(200);
    const firstBefore = await telemetryCount(a.ctx.db, first.id, 'temperature');
    expect((await setEui(first.tangramId, null)).status).toBe(200);
    expect((await setEui(second.tangramId, EUI)).status).toBe(200);
    expect(await uplink(a, integration.secret)).toBe(200);
    // The other replica: once the notification came, the uplink is the second device's.
    const until = Date.now() + NOTIFIED_WITHIN_MS;
    let secondCount = await telemetryCount(a.ctx.db, second.id, 'temperature');
    while (secondCount < 2 && Date.now() < until) {
      expect(await uplink(b, integration.secret)).toBe(200);
      secondCount = await telemetryCount(a.ctx.db, second.id, 'temperature');
    }
    expect(secondCount).toBeGreaterThanOrEqual(2);
    // Nothing stored for the first device since the DevEUI left it.
    expect(await telemetryCount(a.ctx.db, first.id, 'temperature')).toBe(firstBefore);
  });

  it('answers the payloads and counters written in batches when the console reads them', async () => {
    const list = async () =>
      (await a.api<TLorawanIntegrationList>('GET', lorawanPaths.list(project.projectId), { token: vendor.token })).body.data;
    const counted = (l: TLorawanIntegration[]) => l.find((i) => i.id === integration.id)?.uplinks_stored ?? 0;
    // The other replica's payloads of the tests before are written within its flush interval.
    await new Promise((r) => setTimeout(r, UPLINK_LOG_FLUSH_MS * 5));
    const before = counted(await list());
    for (let i = 0; i < 3; i += 1) expect(await uplink(a, integration.secret)).toBe(200);
    expect(counted(await list())).toBe(before + 3);
    const log = await a.api<TLorawanUplinkLog>('GET', lorawanPaths.uplinks(project.projectId, integration.id), { token: vendor.token });
    expect(JSON.parse(log.body.data[0]!.body)).toMatchObject({ deduplicationId: `cache-${seq}` });
  });

  it('refuses an integration deleted through one replica on the other, whose cache held it, at once', async () => {
    expect(await uplink(b, integration.secret)).toBe(200);
    const deleted = await a.api('DELETE', lorawanPaths.one(project.projectId, integration.id), { token: vendor.token });
    expect(deleted.status).toBe(204);
    expect(await uplink(a, integration.secret)).toBe(401);
    const started = Date.now();
    expect(await settlesTo(() => uplink(b, integration.secret), 200, NOTIFIED_WITHIN_MS)).toBe(401);
    expect(Date.now() - started).toBeLessThan(NOTIFIED_WITHIN_MS);
  });
});
