/**
 * ThingsBoard's gateway API on the embedded broker (docs/protocol.md "ThingsBoard gateway API",
 * docs/decisions/device-apis.md "Gateway"): a device marked as a gateway connects devices by name and publishes their
 * telemetry through the one ingest pipeline; the online state follows connect, disconnect and the gateway's
 * connection; the refusals (a non-gateway token, malformed JSON, oversized, a name no device of the gateway's project
 * has — another project's or another tenant's device included). Real clients: MQTT.js and mosquitto_pub.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  GATEWAY_TOPICS as T,
  MQTT_MAX_PACKET_BYTES,
  paths,
  type TDeviceCredentials,
  type TDeviceDetail,
  type TGatewayChildren,
} from '@tessera/contracts';
import { eq, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { rowsOf } from '../../db/client.js';
import { devices } from '../../db/schema.js';
import { rejectedCount, subscribeGranted, telemetryCount, waitUntil } from './ingest-test-kit.js';

const run = promisify(execFile);

describe(`ThingsBoard gateway API over MQTT (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let gateway: TBuiltDevice;
  let plain: TBuiltDevice;
  let a: TBuiltDevice;
  let b: TBuiltDevice;
  let otherProject: TBuiltDevice;
  let otherTenant: TBuiltDevice;
  let gatewayToken = '';
  let plainToken = '';
  const clients: MqttClient[] = [];

  const connect = async (username: string): Promise<MqttClient> => {
    const c = await mqtt.connectAsync(server.mqttUrl, { username, reconnectPeriod: 0, connectTimeout: 5_000 });
    clients.push(c);
    return c;
  };
  const closedBy = (c: MqttClient) => new Promise<void>((resolve) => c.once('close', () => resolve()));
  const rename = (d: TBuiltDevice, name: string) => server.ctx.db.update(devices).set({ name }).where(eq(devices.id, d.id));
  const detail = async (d: TBuiltDevice) =>
    (await server.api<TDeviceDetail>('GET', paths.deviceV2(d.tangramId), { token: vendor.token })).body;
  const children = async () =>
    (await server.api<TGatewayChildren>('GET', paths.gatewayDevices(gateway.tangramId), { token: vendor.token })).body.items;
  const deviceCount = async (): Promise<number> =>
    rowsOf<{ n: number }>(await server.ctx.db.execute(sql`select count(*)::int as n from devices`))[0].n;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    [gateway, plain, a, b] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 4 })).devices;
    [otherProject] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices;
    [otherTenant] = (await buildDeviceProject(server.ctx.db)).devices;
    await rename(a, 'Device A');
    await rename(b, 'Device B');
    await rename(otherProject, 'Other project device');
    await rename(otherTenant, 'Other tenant device');
    const issue = async (d: TBuiltDevice) =>
      (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(d.tangramId), { token: vendor.token })).body
        .access_token as string;
    gatewayToken = await issue(gateway);
    plainToken = await issue(plain);
    const marked = await server.api('PUT', paths.deviceGateway(gateway.tangramId), { token: vendor.token, body: { is_gateway: true } });
    expect(marked.status).toBe(200);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(() => server.stop());

  it('refuses the gateway topics to a token of a device that is not a gateway: publishing closes, subscribing is refused', async () => {
    const c = await connect(plainToken);
    expect(await subscribeGranted(c, [T.rpc, T.attributes])).toEqual([128, 128]);
    const closed = closedBy(c);
    c.publish(T.connect, JSON.stringify({ device: 'Device A' }), { qos: 1 });
    await closed;
    expect((await detail(a)).online).toBe(false);
    // mosquitto_pub as ThingsBoard documents it: the broker closes the connection before the PUBACK.
    await expect(
      run('mosquitto_pub', [
        '-h',
        '127.0.0.1',
        '-p',
        String(server.mqttPort),
        '-q',
        '1',
        '-u',
        plainToken,
        '-t',
        T.telemetry,
        '-m',
        '{"Device A":[{"temperature":1}]}',
      ]),
    ).rejects.toThrow();
    expect(await telemetryCount(server.ctx.db, a.id)).toBe(0);
  });

  it('stores telemetry of named devices in the timestamped and flat forms, PUBACK after the commit; online follows connect and disconnect', async () => {
    const c = await connect(gatewayToken);
    expect((await detail(gateway)).online).toBe(false);
    await c.publishAsync(T.connect, JSON.stringify({ device: 'Device A' }), { qos: 1 });
    expect((await detail(a)).online).toBe(true);
    // The gateway itself is heard from when it publishes, though it sends no telemetry of its own.
    expect((await detail(gateway)).online).toBe(true);
    expect(await children()).toEqual([
      expect.objectContaining({ tangram_id: a.tangramId, name: 'Device A', online: true, connected: true }),
    ]);
    const ts = Date.now() - 60_000;
    await c.publishAsync(
      T.telemetry,
      JSON.stringify({
        'Device A': [
          { ts, values: { temperature: 21.5, humidity: 40 } },
          { ts: ts + 1, values: { temperature: 21.6 } },
        ],
        'Device B': [{ temperature: 19 }],
      }),
      { qos: 1 },
    );
    // Acknowledged after the commit: the points are there now, Device B connected by its telemetry.
    expect(await telemetryCount(server.ctx.db, a.id, 'temperature')).toBe(2);
    expect(await telemetryCount(server.ctx.db, a.id, 'humidity')).toBe(1);
    expect(await telemetryCount(server.ctx.db, b.id, 'temperature')).toBe(1);
    expect(await telemetryCount(server.ctx.db, gateway.id)).toBe(0);
    expect((await detail(b)).online).toBe(true);
    await c.publishAsync(T.disconnect, JSON.stringify({ device: 'Device A' }), { qos: 1 });
    expect((await detail(a)).online).toBe(false);
    expect((await detail(b)).online).toBe(true);
    expect((await children()).map((d) => [d.name, d.connected])).toEqual([
      ['Device A', false],
      ['Device B', true],
    ]);
    // The gateway's connection drops: the devices it held go offline.
    await c.endAsync(true);
    await waitUntil(async () => !(await detail(b)).online);
  });

  it("counts the refusal of a name no device of its project has, another project's and another tenant's devices included, and creates none", async () => {
    const c = await connect(gatewayToken);
    const before = await rejectedCount(server.ctx.db, gateway.id, 'unknown_device');
    const count = await deviceCount();
    await c.publishAsync(T.connect, JSON.stringify({ device: 'Nobody' }), { qos: 1 });
    await c.publishAsync(T.connect, JSON.stringify({ device: 'Other project device' }), { qos: 1 });
    await c.publishAsync(
      T.telemetry,
      JSON.stringify({
        'Other tenant device': [{ temperature: 5 }],
        'Other project device': { temperature: 6 },
        'Device A': { temperature: 7 },
      }),
      { qos: 1 },
    );
    expect(await rejectedCount(server.ctx.db, gateway.id, 'unknown_device')).toBe(before + 4);
    expect(await telemetryCount(server.ctx.db, otherTenant.id)).toBe(0);
    expect(await telemetryCount(server.ctx.db, otherProject.id)).toBe(0);
    expect((await detail(otherProject)).online).toBe(false);
    expect(await deviceCount()).toBe(count);
    // The known device of the same message is stored all the same.
    expect(await telemetryCount(server.ctx.db, a.id, 'temperature')).toBe(3);
    expect((await detail(gateway)).ingest_rejected.unknown_device).toBe(before + 4);
  });

  it('counts malformed telemetry on the gateway and stays connected; an undeclared key is counted on the named device', async () => {
    const c = await connect(gatewayToken);
    const malformed = await rejectedCount(server.ctx.db, gateway.id, 'malformed');
    await c.publishAsync(T.telemetry, '{"Device A": [', { qos: 1 });
    await c.publishAsync(T.telemetry, JSON.stringify([{ key: 'temperature', ts: Date.now(), vs: [1] }]), { qos: 1 });
    expect(await rejectedCount(server.ctx.db, gateway.id, 'malformed')).toBe(malformed + 2);
    const unknownKey = await rejectedCount(server.ctx.db, a.id, 'unknown_key');
    await c.publishAsync(T.telemetry, JSON.stringify({ 'Device A': { pressure: 1013 } }), { qos: 1 });
    expect(await rejectedCount(server.ctx.db, a.id, 'unknown_key')).toBe(unknownKey + 1);
    await c.publishAsync(T.connect, 'not json', { qos: 1 });
    expect(c.connected).toBe(true);
    expect(await telemetryCount(server.ctx.db, gateway.id)).toBe(0);
  });

  it("holds each named device to its own rate allowance: one device's flood is refused, the other's points stored", async () => {
    const c = await connect(gatewayToken);
    const limitedA = await rejectedCount(server.ctx.db, a.id, 'rate_limited');
    const storedBefore = await telemetryCount(server.ctx.db, b.id, 'current');
    // Three bursts' worth for Device A at 3,000 points per second of its own clock (3 keys every ms), all at once.
    const base = 1_600_000_000_000;
    const sends = Array.from({ length: 15 }, (_, m) =>
      JSON.stringify({
        'Device A': Array.from({ length: 333 }, (_, i) => ({
          ts: base + m * 333 + i,
          values: { temperature: 1, humidity: 2, current: 3 },
        })),
        'Device B': [{ ts: base + m, values: { current: 2 } }],
      }),
    );
    await Promise.all(sends.map((p) => c.publishAsync(T.telemetry, p, { qos: 1 })));
    const storedB = await telemetryCount(server.ctx.db, b.id, 'current');
    expect(await rejectedCount(server.ctx.db, a.id, 'rate_limited')).toBeGreaterThan(limitedA);
    expect(await rejectedCount(server.ctx.db, b.id, 'rate_limited')).toBe(0);
    expect(storedB).toBe(storedBefore + 15);
    expect(await rejectedCount(server.ctx.db, gateway.id, 'rate_limited')).toBe(0);
  });

  it('closes the connection of a gateway publishing over the packet limit, and on a topic of the namespace it does not serve', async () => {
    const big = await connect(gatewayToken);
    const closed = closedBy(big);
    big.publish(T.telemetry, JSON.stringify({ 'Device A': { temperature: 1, pad: 'x'.repeat(MQTT_MAX_PACKET_BYTES) } }), { qos: 1 });
    await closed;
    const odd = await connect(gatewayToken);
    const oddClosed = closedBy(odd);
    odd.publish('v1/gateway/provision', JSON.stringify({ 'Device A': {} }), { qos: 1 });
    await oddClosed;
  });

  it('takes mosquitto_pub as ThingsBoard documents it (connect, then telemetry with QoS 1)', async () => {
    const pub = (topic: string, message: string) =>
      run('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(server.mqttPort), '-q', '1', '-u', gatewayToken, '-t', topic, '-m', message]);
    await pub(T.connect, '{"device":"Device B"}');
    const before = await telemetryCount(server.ctx.db, b.id, 'humidity');
    await pub(T.telemetry, `{"Device B":[{"ts":${Date.now() - 1000},"values":{"humidity":55}}]}`);
    // mosquitto_pub exits after the PUBACK: stored.
    expect(await telemetryCount(server.ctx.db, b.id, 'humidity')).toBe(before + 1);
    // Its connection ended with the command: Device B is offline again.
    await waitUntil(async () => !(await detail(b)).online);
  });
});
