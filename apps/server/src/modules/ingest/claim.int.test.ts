/**
 * ThingsBoard's device claiming, refused (docs/decisions/device-apis.md "Claiming"): a claim on `v1/devices/me/claim`
 * or `v1/gateway/claim` is acknowledged (PUBACK) and dropped, counted on the device as `claim_refused`, changes no
 * owner or authorisation, and leaves the connection open: the telemetry sent after it is stored. Real MQTT.js clients.
 * Over HTTP, `POST /api/v1/{token}/claim` answers 403 DEVICE_CLAIM_REFUSED, counted the same; an unknown token 401.
 */
import { ErrorCode, GATEWAY_TOPICS, paths, type TDeviceCredentials, type TDeviceDetail, type TErrorBody } from '@tessera/contracts';
import { eq, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { rowsOf } from '../../db/client.js';
import { devices } from '../../db/schema.js';
import { CLAIM_REFUSED } from './claim-refusal.js';
import { telemetryCount } from './ingest-test-kit.js';

describe(`ThingsBoard device claiming is refused (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let dev: TBuiltDevice;
  let gateway: TBuiltDevice;
  let child: TBuiltDevice;
  const clients: MqttClient[] = [];

  const connect = async (token: string) => {
    const c = await mqtt.connectAsync(server.mqttUrl, { username: token, reconnectPeriod: 0, connectTimeout: 5_000 });
    clients.push(c);
    return c;
  };
  const issueToken = async (d: TBuiltDevice) =>
    (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(d.tangramId), { token: vendor.token })).body
      .access_token as string;
  const refused = async (d: TBuiltDevice) =>
    (await server.api<TDeviceDetail>('GET', paths.deviceV2(d.tangramId), { token: vendor.token })).body.ingest_rejected[CLAIM_REFUSED] ?? 0;
  const ownership = async () =>
    rowsOf<{ n: number }>(
      await server.ctx.db.execute(sql`select (select count(*) from authz_requests)::int + (select count(*) from device_authz)::int as n`),
    )[0].n;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    [dev, gateway, child] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 })).devices;
    await server.ctx.db.update(devices).set({ name: 'Child' }).where(eq(devices.id, child.id));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await server.stop();
  });

  it('v1/devices/me/claim: acknowledged, counted on the device, nothing granted, the connection stays open', async () => {
    const c = await connect(await issueToken(dev));
    const before = await ownership();
    await c.publishAsync('v1/devices/me/claim', JSON.stringify({ secretKey: 'abc', durationMs: 60_000 }), { qos: 1 });
    expect(await refused(dev)).toBe(1);
    expect(await ownership()).toBe(before);
    await c.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 21 }), { qos: 1 });
    expect(c.connected).toBe(true);
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(1);
  });

  it('v1/gateway/claim: acknowledged, counted on the gateway, the connection stays open for the devices behind it', async () => {
    const token = await issueToken(gateway);
    const marked = await server.api('PUT', paths.deviceGateway(gateway.tangramId), { token: vendor.token, body: { is_gateway: true } });
    expect(marked.status).toBe(200);
    const c = await connect(token);
    const before = await ownership();
    await c.publishAsync(GATEWAY_TOPICS.claim, JSON.stringify({ Child: { secretKey: 'abc', durationMs: 60_000 } }), { qos: 1 });
    await c.publishAsync(GATEWAY_TOPICS.claim, JSON.stringify({ Child: {} }), { qos: 1 });
    expect(await refused(gateway)).toBe(2);
    expect(await refused(child)).toBe(0);
    expect(await ownership()).toBe(before);
    await c.publishAsync(GATEWAY_TOPICS.telemetry, JSON.stringify({ Child: [{ temperature: 19 }] }), { qos: 1 });
    expect(c.connected).toBe(true);
    expect(await telemetryCount(server.ctx.db, child.id, 'temperature')).toBe(1);
  });

  it('POST /api/v1/{token}/claim: 403 DEVICE_CLAIM_REFUSED, counted on the device, nothing granted; an unknown token 401', async () => {
    const [httpDev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 })).devices;
    const token = await issueToken(httpDev);
    const before = await ownership();
    const claim = (t: string, contentType = 'application/json') =>
      fetch(`${server.httpUrl}/api/v1/${t}/claim`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: JSON.stringify({ secretKey: 'abc', durationMs: 60_000 }),
      });
    const res = await claim(token);
    expect(res.status).toBe(403);
    const body = (await res.json()) as TErrorBody;
    expect(body.code).toBe(ErrorCode.DeviceClaimRefused);
    expect(body.message).toMatch(/claiming is not supported/);
    // An empty body and curl's form type are refused alike: the claim is not read at all.
    const bare = await fetch(`${server.httpUrl}/api/v1/${token}/claim`, { method: 'POST' });
    expect(bare.status).toBe(403);
    expect((await claim(token, 'application/x-www-form-urlencoded')).status).toBe(403);
    expect(await refused(httpDev)).toBe(3);
    expect(await ownership()).toBe(before);

    const unknown = await claim('no-device-has-this-token');
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as TErrorBody).code).toBe(ErrorCode.WrongCredentials);

    const doc = (
      await server.api<{ paths: Record<string, Record<string, { summary?: string; responses: object }>> }>('GET', '/openapi.json')
    ).body;
    const op = doc.paths['/api/v1/{token}/claim']?.post;
    expect(op?.summary).toMatch(/claim/i);
    expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['401', '403']));
    expect(op?.responses).toHaveProperty('403.content.application/json.examples.DEVICE_CLAIM_REFUSED');
  });
});
