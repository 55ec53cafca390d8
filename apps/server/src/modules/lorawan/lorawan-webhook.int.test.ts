/**
 * The LoRaWAN uplink webhook (docs/protocol.md "LoRaWAN network servers") with real clients, fetch and curl, posting
 * ChirpStack v4 and The Things Stack v3 bodies in their documented shapes (fixtures/): 200 only once committed and the
 * points readable through the telemetry API; 204 for events without an uplink; 202 for uplinks not stored (unknown or
 * another tenant's DevEUI, values ingest refuses); 400, 401, 404, 413, 429; the last payloads, bounded.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import {
  LORAWAN_LOG_SIZE,
  LORAWAN_SECRET_HEADER,
  lorawanPaths,
  MQTT_MAX_PACKET_BYTES,
  paths,
  type TLatestValue,
  type TLorawanIntegration,
  type TLorawanIntegrationInput,
  type TLorawanIntegrationWithSecret,
  type TLorawanUplinkLog,
} from '@tessera/contracts';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.js';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { LORAWAN_WEBHOOK_RATE_LIMIT } from './webhook-route.js';
import { rejectedCount, telemetryCount } from '../ingest/ingest-test-kit.js';

const run = promisify(execFile);
const FIXTURES = new URL('./fixtures/', import.meta.url);

/** A fixture body with its network server's receive times set to `ts` (the documented ones are years old). */
async function fixture(name: string, ts = Date.now()): Promise<Record<string, unknown>> {
  const body = JSON.parse(await readFile(new URL(name, FIXTURES), 'utf8')) as Record<string, unknown>;
  const iso = new Date(ts).toISOString();
  if ('time' in body) body.time = iso;
  if ('received_at' in body) body.received_at = iso;
  const uplink = body.uplink_message as Record<string, unknown> | undefined;
  if (uplink) uplink.received_at = iso;
  return body;
}

/** `body` naming DevEUI `devEui` (ChirpStack's deviceInfo.devEui or The Things Stack's end_device_ids.dev_eui). */
function naming(body: Record<string, unknown>, devEui: string): Record<string, unknown> {
  const copy = structuredClone(body);
  if (copy.deviceInfo) (copy.deviceInfo as Record<string, unknown>).devEui = devEui.toLowerCase();
  if (copy.end_device_ids) (copy.end_device_ids as Record<string, unknown>).dev_eui = devEui;
  return copy;
}

/**
 * Every case on both listeners that take the webhook: the main HTTP port, and the device HTTP port (DEVICE_HTTP_PORT),
 * whose thread parses each request and hands it to the main thread (app/device-http.ts).
 */
const LISTENERS = [
  { listener: 'the main HTTP port', deviceHttp: false },
  { listener: 'the device HTTP port', deviceHttp: true },
] as const;

describe.each(LISTENERS)(`LoRaWAN uplink webhook on $listener (${TEST_DB_KIND})`, ({ deviceHttp }) => {
  let server: TTestServer;
  /** http://127.0.0.1:<port> of the listener under test. */
  let baseUrl: string;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  let otherTenant: TBuiltProject;
  let chirpstack: TLorawanIntegrationWithSecret;
  let tts: TLorawanIntegrationWithSecret;
  const CS_EUI = '0101010101010101';
  const TTS_EUI = '0004A30B001C0530';
  const FOREIGN_EUI = 'A8404187D187106E';

  const post = (path: string, secret: string | null, body: string | Buffer, query = '') =>
    fetch(`${baseUrl}${path}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret === null ? {} : { [LORAWAN_SECRET_HEADER]: secret }) },
      body,
    });
  const postUp = (i: TLorawanIntegrationWithSecret, body: unknown, event = 'up') =>
    post(i.webhook_path, i.secret, JSON.stringify(body), i.network_server === 'chirpstack' ? `?event=${event}` : '');
  /** The headers every webhook answer carries: the non-document security headers and a request id, no CSP or framing. */
  const expectWebhookHeaders = (res: Response) => {
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('x-frame-options')).toBeNull();
  };
  const latest = async (tangramId: string) =>
    (await server.api<TLatestValue[]>('GET', `${paths.tsLatest}?tangramId=${tangramId}`, { token: vendor.token })).body;
  const uplinkLog = async (i: TLorawanIntegration) =>
    (await server.api<TLorawanUplinkLog>('GET', lorawanPaths.uplinks(project.projectId, i.id), { token: vendor.token })).body.data;
  const create = async (body: TLorawanIntegrationInput) => {
    const res = await server.api<TLorawanIntegrationWithSecret>('POST', lorawanPaths.list(project.projectId), {
      token: vendor.token,
      body,
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const setMapping = (i: TLorawanIntegration, mapping: TLorawanIntegrationInput['mapping']) =>
    server.api('PUT', lorawanPaths.one(project.projectId, i.id), {
      token: vendor.token,
      body: { name: i.name, network_server: i.network_server, mapping },
    });

  beforeAll(async () => {
    server = await startTestServer(deviceHttp ? { deviceHttpPort: 0 } : {});
    baseUrl = deviceHttp ? `http://127.0.0.1:${server.deviceHttp?.port}` : server.httpUrl;
    vendor = await buildVendor(server);
    const stranger = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    otherTenant = await buildDeviceProject(server.ctx.db, { tenantId: stranger.tenantId });
    const setEui = async (token: string, tangramId: string, devEui: string) =>
      expect((await server.api('PUT', lorawanPaths.device(tangramId), { token, body: { dev_eui: devEui } })).status).toBe(200);
    await setEui(vendor.token, project.devices[0].tangramId, CS_EUI);
    await setEui(vendor.token, project.devices[1].tangramId, TTS_EUI);
    // Another tenant's device has a DevEUI no device of this tenant has.
    await setEui(stranger.token, otherTenant.devices[0].tangramId, FOREIGN_EUI);
    chirpstack = await create({ name: 'ChirpStack', network_server: 'chirpstack' });
    tts = await create({
      name: 'TTS',
      network_server: 'tts',
      mapping: [
        { path: 'temperature', key: 'temperature' },
        { path: 'sensor.x', key: 'vibration' },
        { path: 'sensor.y', key: 'vibration' },
        { path: 'sensor.z', key: 'vibration' },
      ],
    });
  });
  afterAll(() => server.stop());

  it('ChirpStack: a decoded value that is not a number refuses the uplink whole under the default mapping (202, counted)', async () => {
    const [dev] = project.devices;
    const before = await rejectedCount(server.ctx.db, dev.id, 'malformed');
    const res = await postUp(chirpstack, await fixture('chirpstack-up.json'));
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ stored: 0, refused: 'malformed' });
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(0);
    // Counted as the device's refused points, as on MQTT: the uplink's three.
    expect(await rejectedCount(server.ctx.db, dev.id, 'malformed')).toBe(before + 3);
  });

  it('ChirpStack: 200 once committed with a mapping; the values are readable through the telemetry API at the uplink time', async () => {
    const [dev] = project.devices;
    expect(
      (
        await setMapping(chirpstack, [
          { path: 'temperature', key: 'temperature' },
          { path: 'humidity', key: 'humidity' },
        ])
      ).status,
    ).toBe(200);
    const at = Date.now() - 60_000;
    const res = await postUp(chirpstack, await fixture('chirpstack-up.json', at));
    expect(res.status).toBe(200);
    expectWebhookHeaders(res);
    expect(await res.json()).toEqual({ stored: 2 });
    // Answered after the commit: the points are stored now.
    const values = await latest(dev.tangramId);
    expect(values.find((v) => v.key === 'temperature')).toMatchObject({ ts: at, vs: [22.5] });
    expect(values.find((v) => v.key === 'humidity')).toMatchObject({ ts: at, vs: [40.2] });
    const [entry] = await uplinkLog(chirpstack);
    expect(entry).toMatchObject({ event: 'up', dev_eui: CS_EUI, tangram_id: dev.tangramId, outcome: 'stored', points: 2, status: 200 });
    expect(JSON.parse(entry!.body)).toMatchObject({ deviceInfo: { devEui: CS_EUI.toLowerCase() } });
  });

  it('ChirpStack: join and status events answer 204, store nothing and appear in the last payloads', async () => {
    const [dev] = project.devices;
    const before = await telemetryCount(server.ctx.db, dev.id);
    expect((await postUp(chirpstack, await fixture('chirpstack-join.json'), 'join')).status).toBe(204);
    expect((await postUp(chirpstack, await fixture('chirpstack-join.json'), 'status')).status).toBe(204);
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(before);
    const [status, join] = await uplinkLog(chirpstack);
    expect(status).toMatchObject({ event: 'status', outcome: 'ignored', status: 204 });
    expect(join).toMatchObject({ event: 'join', outcome: 'ignored', status: 204, dev_eui: CS_EUI });
  });

  it('The Things Stack: 200 with nested fields mapped, three of them into one three-value key', async () => {
    const dev = project.devices[1];
    const at = Date.now() - 30_000;
    const res = await postUp(tts, await fixture('tts-uplink.json', at));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ stored: 2 });
    const values = await latest(dev.tangramId);
    expect(values.find((v) => v.key === 'temperature')).toMatchObject({ ts: at, vs: [21.3] });
    expect(values.find((v) => v.key === 'vibration')).toMatchObject({ ts: at, vs: [0.12, 0.07, 0.31] });
    const list = (await server.api<{ data: TLorawanIntegration[] }>('GET', lorawanPaths.list(project.projectId), { token: vendor.token }))
      .body.data;
    expect(list.find((i) => i.id === tts.id)).toMatchObject({ uplinks_stored: 1, uplinks_refused: 0 });
  });

  it('202 unknown_device for a device of another project of the tenant: an integration feeds its own project only', async () => {
    const elsewhere = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    const [dev] = elsewhere.devices;
    const eui = 'C0FFEE0000000001';
    expect((await server.api('PUT', lorawanPaths.device(dev!.tangramId), { token: vendor.token, body: { dev_eui: eui } })).status).toBe(
      200,
    );
    const res = await postUp(chirpstack, naming(await fixture('chirpstack-up.json'), eui));
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ stored: 0, refused: 'unknown_device', detail: expect.stringContaining('another project') });
    expect(await telemetryCount(server.ctx.db, dev!.id)).toBe(0);
  });

  it("202 unknown_device for a DevEUI no device of the tenant has — another tenant's device's included — logged and counted", async () => {
    for (const devEui of ['FFFFFFFFFFFFFFFE', FOREIGN_EUI]) {
      const res = await postUp(chirpstack, naming(await fixture('chirpstack-up.json'), devEui));
      expect(res.status).toBe(202);
      expect(await res.json()).toMatchObject({ stored: 0, refused: 'unknown_device' });
    }
    expect(await telemetryCount(server.ctx.db, otherTenant.devices[0].id)).toBe(0);
    const [foreign] = await uplinkLog(chirpstack);
    expect(foreign).toMatchObject({ dev_eui: FOREIGN_EUI, tangram_id: null, outcome: 'refused', reason: 'unknown_device', status: 202 });
    const list = (await server.api<{ data: TLorawanIntegration[] }>('GET', lorawanPaths.list(project.projectId), { token: vendor.token }))
      .body.data;
    expect(list.find((i) => i.id === chirpstack.id)!.uplinks_refused).toBeGreaterThanOrEqual(3);
  });

  it('401 for a wrong or missing secret and an unknown integration; 404 for the other network server; nothing logged for them', async () => {
    const body = JSON.stringify(await fixture('chirpstack-up.json'));
    const logged = (await uplinkLog(chirpstack)).length;
    for (const res of [
      await post(chirpstack.webhook_path, `${chirpstack.secret}x`, body, '?event=up'),
      await post(chirpstack.webhook_path, null, body, '?event=up'),
      await post(chirpstack.webhook_path, tts.secret, body, '?event=up'),
      await post(lorawanPaths.webhook(2_000_000_000, 'chirpstack'), chirpstack.secret, body, '?event=up'),
    ]) {
      expect(res.status).toBe(401);
      expectWebhookHeaders(res);
      expect(((await res.json()) as { code: string }).code).toBe('AUTH_WRONG_CREDENTIALS');
    }
    const wrongServer = await post(lorawanPaths.webhook(chirpstack.id, 'tts'), chirpstack.secret, body);
    expect(wrongServer.status).toBe(404);
    expect((await uplinkLog(chirpstack)).length).toBe(logged);
  });

  it('400 for a body that is not JSON or not an uplink (logged), 413 over the MQTT packet limit, storing nothing', async () => {
    const [dev] = project.devices;
    const before = await telemetryCount(server.ctx.db, dev.id);
    const bad = await post(chirpstack.webhook_path, chirpstack.secret, '{"deviceInfo": ', '?event=up');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('not JSON') });
    const noEui = await post(tts.webhook_path, tts.secret, JSON.stringify({ uplink_message: { decoded_payload: { temperature: 1 } } }));
    expect(noEui.status).toBe(400);
    const noEvent = await post(chirpstack.webhook_path, chirpstack.secret, JSON.stringify(await fixture('chirpstack-up.json')));
    expect(noEvent.status).toBe(400);
    const big = await post(chirpstack.webhook_path, chirpstack.secret, Buffer.alloc(MQTT_MAX_PACKET_BYTES + 1, 0x20), '?event=up');
    expect(big.status).toBe(413);
    expect(((await big.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(before);
    const [last] = await uplinkLog(chirpstack);
    expect(last).toMatchObject({ outcome: 'refused', reason: 'malformed', status: 400 });
  });

  it('takes curl as ChirpStack posts it, and answers 401 to the old secret once rotated', async () => {
    const [dev] = project.devices;
    const before = await telemetryCount(server.ctx.db, dev.id, 'temperature');
    const body = JSON.stringify(await fixture('chirpstack-up.json', Date.now() - 10_000));
    const url = `${baseUrl}${chirpstack.webhook_path}?event=up`;
    const curl = (secret: string) =>
      run('curl', [
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '-H',
        `${LORAWAN_SECRET_HEADER}: ${secret}`,
        '-H',
        'Content-Type: application/json',
        '-d',
        body,
        url,
      ]);
    expect((await curl(chirpstack.secret)).stdout).toBe('200');
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(before + 1);
    const rotated = await server.api<TLorawanIntegrationWithSecret>('POST', lorawanPaths.secret(project.projectId, chirpstack.id), {
      token: vendor.token,
    });
    expect(rotated.status).toBe(200);
    expect((await curl(chirpstack.secret)).stdout).toBe('401');
    expect((await curl(rotated.body.secret)).stdout).toBe('200');
    chirpstack = rotated.body;
  });

  it(`keeps the last ${LORAWAN_LOG_SIZE} payloads of an integration, newest first`, async () => {
    const join = await fixture('chirpstack-join.json');
    for (let i = 0; i < LORAWAN_LOG_SIZE + 3; i += 1) {
      expect((await postUp(chirpstack, { ...join, deduplicationId: `dedup-${i}` }, 'join')).status).toBe(204);
    }
    const log = await uplinkLog(chirpstack);
    expect(log).toHaveLength(LORAWAN_LOG_SIZE);
    expect(JSON.parse(log[0]!.body)).toMatchObject({ deduplicationId: `dedup-${LORAWAN_LOG_SIZE + 2}` });
    expect(JSON.parse(log.at(-1)!.body)).toMatchObject({ deduplicationId: 'dedup-3' });
    // A network server's uplinks are device data, not an account's change: none of them is in the audit log.
    const audited = await server.ctx.db.select({ route: auditLog.route }).from(auditLog).where(like(auditLog.route, '% /lorawan/v1/%'));
    expect(audited).toEqual([]);
  });

  it(`answers within its limit without rate-limit headers, and a request past ${LORAWAN_WEBHOOK_RATE_LIMIT.max} in a window 429 with them`, async () => {
    const own = await create({ name: 'Limited', network_server: 'chirpstack' });
    const join = await fixture('chirpstack-join.json');
    const first = await postUp(own, join, 'join');
    expect(first.status).toBe(204);
    expect([...first.headers.keys()].filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
    // the rest of the window's allowance, 50 at a time
    for (let sent = 1; sent < LORAWAN_WEBHOOK_RATE_LIMIT.max; sent += 50) {
      const n = Math.min(50, LORAWAN_WEBHOOK_RATE_LIMIT.max - sent);
      const statuses = await Promise.all(Array.from({ length: n }, async () => (await postUp(own, join, 'join')).status));
      expect(new Set(statuses)).toEqual(new Set([204]));
    }
    const over = await postUp(own, join, 'join');
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-limit')).toBe(String(LORAWAN_WEBHOOK_RATE_LIMIT.max));
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // another integration's allowance is its own
    expect((await postUp(chirpstack, join, 'join')).status).toBe(204);
  });
});
