/**
 * Gateways in the console API and what the platform exchanges with devices behind a gateway
 * (docs/decisions/device-apis.md "Gateway", docs/protocol.md "ThingsBoard gateway API"): the gateway flag (401, 403,
 * 404 for another tenant's device, 200; turning it off closes the gateway's connection), the project setting that
 * lets gateways create devices, the list of devices behind a gateway; client attributes up, attribute requests,
 * shared attributes pushed down, and the remote control as RPC through the gateway. Real MQTT.js clients and fetch.
 */
import {
  deviceAttributePaths as ap,
  deviceControlPaths as cp,
  GATEWAY_TOPICS as T,
  paths,
  type TDeviceAttributeList,
  type TDeviceCredentials,
  type TDeviceInfoAnswer,
  type TGatewayChildren,
} from '@tessera/contracts';
import { and, eq } from 'drizzle-orm';
import { SIM_FIRMWARE_VERSION, startSimulator } from '@tessera/device-sim';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice, type TBuiltProject } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { devices, projects, tangramProducts } from '../../db/schema.js';
import { telemetryCount, waitUntil } from '../ingest/ingest-test-kit.js';

describe(`Gateways: console API, attributes and RPC through a gateway (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let outsider: TBuiltAccount;
  let user: TBuiltAccount;
  let project: TBuiltProject;
  let gateway: TBuiltDevice;
  let child: TBuiltDevice;
  let token = '';
  const clients: MqttClient[] = [];

  /** A gateway connection subscribed to its three downlink topics, collecting what arrives. */
  const gatewayClient = async () => {
    const c = await mqtt.connectAsync(server.mqttUrl, { username: token, reconnectPeriod: 0, connectTimeout: 5_000 });
    clients.push(c);
    const got: { topic: string; body: Record<string, unknown> }[] = [];
    c.on('message', (topic, payload) => got.push({ topic, body: JSON.parse(payload.toString()) as Record<string, unknown> }));
    await c.subscribeAsync([T.attributes, T.attributeResponse, T.rpc], { qos: 1 });
    return { c, got };
  };
  const setFlag = (tangramId: string, as: string, isGateway: boolean) =>
    server.api('PUT', paths.deviceGateway(tangramId), { token: as, body: { is_gateway: isGateway } });

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    outsider = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    [gateway, child] = project.devices;
    await server.ctx.db.update(devices).set({ name: 'Pump 1' }).where(eq(devices.id, child.id));
    token = (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(gateway.tangramId), { token: vendor.token })).body
      .access_token as string;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(() => server.stop());

  it('marks a device as a gateway: 401 without a token, 403 for a user, 404 for another tenant, 200 for its vendor', async () => {
    expect((await server.api('PUT', paths.deviceGateway(gateway.tangramId), { body: { is_gateway: true } })).status).toBe(401);
    expect((await setFlag(gateway.tangramId, user.token, true)).status).toBe(403);
    expect((await setFlag(gateway.tangramId, outsider.token, true)).status).toBe(404);
    expect((await setFlag(gateway.tangramId, vendor.token, true)).body).toEqual({ tangram_id: gateway.tangramId, is_gateway: true });
    expect(
      (await server.api<{ is_gateway: boolean }>('GET', paths.deviceV2(gateway.tangramId), { token: vendor.token })).body.is_gateway,
    ).toBe(true);
  });

  it('lists the devices behind a gateway: 401, 404 for another tenant and for a user not authorised, 200 otherwise', async () => {
    const { c } = await gatewayClient();
    await c.publishAsync(T.connect, JSON.stringify({ device: 'Pump 1' }), { qos: 1 });
    const list = (as?: string) => server.api<TGatewayChildren>('GET', paths.gatewayDevices(gateway.tangramId), { token: as });
    expect((await list()).status).toBe(401);
    expect((await list(outsider.token)).status).toBe(404);
    expect((await list(user.token)).status).toBe(404);
    const res = await list(vendor.token);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { tangram_id: child.tangramId, name: 'Pump 1', online: true, connected: true, last_seen_at: expect.any(Number) },
    ]);
    // A user sees the gateway's devices that are theirs only.
    await authorise(server.ctx.db, gateway.id, user.accountId);
    expect((await list(user.token)).body.items).toEqual([]);
    await authorise(server.ctx.db, child.id, user.accountId);
    expect((await list(user.token)).body.items.map((d) => d.name)).toEqual(['Pump 1']);
  });

  it('stores client attributes of named devices, answers attribute requests in both documented forms', async () => {
    const { c, got } = await gatewayClient();
    await c.publishAsync(T.attributes, JSON.stringify({ 'Pump 1': { firmware: '2.0.1', battery: 87 } }), { qos: 1 });
    const client = await server.api<TDeviceAttributeList>('GET', ap.scope(child.tangramId, 'client'), { token: vendor.token });
    expect(Object.fromEntries(client.body.items.map((i) => [i.key, i.value]))).toEqual({ firmware: '2.0.1', battery: 87 });
    await server.api('POST', ap.scope(child.tangramId, 'shared'), { token: vendor.token, body: { interval: 30 } });
    await c.publishAsync(T.attributeRequest, JSON.stringify({ id: 1, device: 'Pump 1', client: true, key: 'firmware' }), { qos: 1 });
    await c.publishAsync(T.attributeRequest, JSON.stringify({ id: 2, device: 'Pump 1', client: false, keys: ['interval'] }), { qos: 1 });
    await c.publishAsync(T.attributeRequest, JSON.stringify({ id: 3, device: 'Pump 1', client: ['battery'], shared: ['interval'] }), {
      qos: 1,
    });
    await c.publishAsync(T.attributeRequest, JSON.stringify({ id: 4, device: 'Nobody', client: true, key: 'firmware' }), { qos: 1 });
    await waitUntil(() => got.filter((g) => g.topic === T.attributeResponse).length === 4);
    expect(got.filter((g) => g.topic === T.attributeResponse).map((g) => g.body)).toEqual([
      { id: 1, device: 'Pump 1', value: '2.0.1' },
      { id: 2, device: 'Pump 1', values: { interval: 30 } },
      { id: 3, device: 'Pump 1', client: { battery: 87 }, shared: { interval: 30 } },
      { id: 4, device: 'Nobody', error: 'unknown device' },
    ]);
  });

  it('pushes shared attribute changes of a connected device to its gateway as {device, data}', async () => {
    const { c, got } = await gatewayClient();
    await c.publishAsync(T.connect, JSON.stringify({ device: 'Pump 1' }), { qos: 1 });
    await server.api('POST', ap.scope(child.tangramId, 'shared'), { token: vendor.token, body: { interval: 60 } });
    await waitUntil(() => got.some((g) => g.topic === T.attributes));
    expect(got.find((g) => g.topic === T.attributes)?.body).toEqual({ device: 'Pump 1', data: { interval: 60 } });
  });

  it('sends the remote control as RPC through the gateway and takes its answer; offline once the gateway says the device left', async () => {
    const { c, got } = await gatewayClient();
    c.on('message', (topic, payload) => {
      if (topic !== T.rpc) return;
      const req = JSON.parse(payload.toString()) as { device: string; data: { id: number; method: string } };
      const data = { firmwareVersion: 'gw-1.0', uptimeMs: 5_000, rssiDbm: -60, sensors: [] };
      c.publish(T.rpc, JSON.stringify({ device: req.device, id: req.data.id, data }), { qos: 1 });
    });
    await c.publishAsync(T.connect, JSON.stringify({ device: 'Pump 1' }), { qos: 1 });
    const res = await server.api<TDeviceInfoAnswer>('POST', cp.getDeviceInfo(child.tangramId), { token: vendor.token });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ firmware_version: 'gw-1.0', rssi_dbm: -60 });
    const rpc = got.find((g) => g.topic === T.rpc)?.body as { device: string; data: { id: unknown; method: string; params: unknown } };
    expect(rpc).toEqual({ device: 'Pump 1', data: { id: expect.any(Number), method: 'getDeviceInfo', params: {} } });
    await c.publishAsync(T.disconnect, JSON.stringify({ device: 'Pump 1' }), { qos: 1 });
    expect((await server.api('POST', cp.getDeviceInfo(child.tangramId), { token: vendor.token })).status).toBe(409);
  });

  it('creates a device it names only once the project allows it (403 for a user, 404 for another tenant)', async () => {
    const setting = (as: string | undefined, on?: boolean) =>
      server.api<{ gateway_creates_devices: boolean }>(on === undefined ? 'GET' : 'PUT', paths.projectGateway(project.projectId), {
        token: as,
        body: on === undefined ? undefined : { gateway_creates_devices: on },
      });
    expect((await setting(undefined)).status).toBe(401);
    expect((await setting(user.token)).status).toBe(403);
    expect((await setting(outsider.token, true)).status).toBe(404);
    expect((await setting(vendor.token)).body).toEqual({ gateway_creates_devices: false });
    // A Tangram ID takes a 4-digit module model number (the factory's are longer: it never registers through the API).
    const [p] = await server.ctx.db.select({ tp: projects.tangramProductId }).from(projects).where(eq(projects.id, project.projectId));
    await server.ctx.db
      .update(tangramProducts)
      .set({ modelNumber: 'A1B2' })
      .where(eq(tangramProducts.id, p?.tp as number));
    const { c } = await gatewayClient();
    const named = () =>
      server.ctx.db
        .select({ id: devices.id, tangramId: devices.tangramId })
        .from(devices)
        .where(and(eq(devices.projectId, project.projectId), eq(devices.name, 'Meter 7')));
    await c.publishAsync(T.telemetry, JSON.stringify({ 'Meter 7': [{ temperature: 3 }] }), { qos: 1 });
    expect(await named()).toEqual([]);
    expect((await setting(vendor.token, true)).body).toEqual({ gateway_creates_devices: true });
    // An unknown name is remembered for at most a second.
    await new Promise((r) => setTimeout(r, 1_100));
    await c.publishAsync(T.telemetry, JSON.stringify({ 'Meter 7': [{ temperature: 4 }] }), { qos: 1 });
    const [created] = await named();
    expect(created).toBeDefined();
    expect(await telemetryCount(server.ctx.db, created?.id as number, 'temperature')).toBe(1);
    await setting(vendor.token, false);
  });

  it('the simulator acts as a gateway for N devices: their telemetry is stored, their remote control answered', async () => {
    const named = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    await Promise.all(
      named.devices.map((d, i) =>
        server.ctx.db
          .update(devices)
          .set({ name: `sim-${i + 1}`, projectId: project.projectId })
          .where(eq(devices.id, d.id)),
      ),
    );
    const sim = await startSimulator({
      url: server.mqttUrl,
      devices: [{ tangramId: gateway.tangramId, secret: token }],
      rateHz: 5,
      gateway: { devices: 3 },
    });
    try {
      await waitUntil(async () => (await Promise.all(named.devices.map((d) => telemetryCount(server.ctx.db, d.id)))).every((n) => n > 0));
      const listed = (await server.api<TGatewayChildren>('GET', paths.gatewayDevices(gateway.tangramId), { token: vendor.token })).body
        .items;
      expect(listed.filter((d) => d.connected).map((d) => d.name)).toEqual(['sim-1', 'sim-2', 'sim-3']);
      const res = await server.api<TDeviceInfoAnswer>('POST', cp.getDeviceInfo(named.devices[1]?.tangramId as string), {
        token: vendor.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.result.firmware_version).toBe(SIM_FIRMWARE_VERSION);
    } finally {
      await sim.stop();
    }
  });

  it('turning the flag off closes the gateway connection and refuses its next gateway publish', async () => {
    const { c } = await gatewayClient();
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    expect((await setFlag(gateway.tangramId, vendor.token, false)).status).toBe(200);
    await closed;
    const again = await mqtt.connectAsync(server.mqttUrl, { username: token, reconnectPeriod: 0, connectTimeout: 5_000 });
    clients.push(again);
    const refused = new Promise<void>((resolve) => again.once('close', () => resolve()));
    again.publish(T.connect, JSON.stringify({ device: 'Pump 1' }), { qos: 1 });
    await refused;
  });
});
