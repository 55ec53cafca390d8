/**
 * Undeclared telemetry keys (docs/decisions/telemetry.md "Undeclared keys") end to end with real clients: with the
 * project setting off a key no sensor declares is refused and counted as before; on, its first value types it, its
 * points are stored and it is offered for declaration, whichever way it came (native MQTT.js, ThingsBoard MQTT and
 * HTTP, the gateway API, a LoRaWAN webhook); a later value of another type is refused; the offer is bounded; the
 * routes are vendor-only and tenant-scoped; a declared key is a sensor, a discarded one is refused again.
 */
import { readFile } from 'node:fs/promises';
import {
  GATEWAY_TOPICS,
  LORAWAN_SECRET_HEADER,
  paths,
  sensorPaths,
  settingsPaths,
  type TDeviceCredentials,
  type TSensorList,
  type TUndeclaredKeyList,
  topics,
  UNDECLARED_KEYS_MAX,
  undeclaredKeyPaths,
} from '@tessera/contracts';
import { eq, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildLorawanWebhook, type TBuiltAccount, buildUser, buildVendor } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { rowsOf } from '../../db/client.js';
import { devices } from '../../db/schema.js';
import { connectMqtt, rejectedCount, telemetryCount } from './ingest-test-kit.js';

describe(`undeclared telemetry keys (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let projectId = 0;
  let dev: TBuiltDevice;
  let tb: TBuiltDevice;
  let gateway: TBuiltDevice;
  let child: TBuiltDevice;
  let device: MqttClient;
  const clients: MqttClient[] = [];

  const values = async (deviceId: number, key: string) =>
    rowsOf<{ value: unknown }>(
      await server.ctx.db.execute(sql`select value from telemetry_values where device_id = ${deviceId} and key = ${key} order by ts`),
    ).map((r) => r.value);
  const offer = async (id = projectId) =>
    (await server.api<TUndeclaredKeyList>('GET', undeclaredKeyPaths.list(id), { token: vendor.token })).body;
  const setAccepting = async (id: number, on: boolean) => {
    const res = await server.api('PUT', settingsPaths.undeclaredKeySetting(id), {
      token: vendor.token,
      body: { accepts_undeclared_keys: on },
    });
    expect(res.status).toBe(200);
  };
  const publish = (points: unknown, client = device, tangramId = dev.tangramId) =>
    client.publishAsync(topics.telemetry(tangramId), JSON.stringify(points), { qos: 1 });
  const issueToken = async (d: TBuiltDevice) =>
    (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(d.tangramId), { token: vendor.token })).body
      .access_token as string;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    const built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 4, sensors: [{ key: 'temperature' }] });
    projectId = built.projectId;
    [dev, tb, gateway, child] = built.devices;
    device = await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret);
    clients.push(device);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await server.stop();
  });

  it('setting off (the default): an undeclared key is refused whole and counted as unknown_key, nothing stored or offered', async () => {
    const before = await rejectedCount(server.ctx.db, dev.id, 'unknown_key');
    const ts = Date.now() - 1_000;
    await publish([
      { key: 'temperature', ts, vs: [20] },
      { key: 'pressure', ts, vs: [1013] },
    ]);
    expect(await rejectedCount(server.ctx.db, dev.id, 'unknown_key')).toBe(before + 2);
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(0);
    expect(await offer()).toEqual({ items: [], limit: UNDECLARED_KEYS_MAX, accepts_undeclared_keys: false });
  });

  it('setting on: the first value types each key, its points are stored and it is offered; a value of another type is refused', async () => {
    await setAccepting(projectId, true);
    const ts = Date.now() - 1_000;
    await publish([
      { key: 'temperature', ts, vs: [20] },
      { key: 'pressure', ts, vs: [1013, 2] },
      { key: 'mode', ts, vs: ['eco'] },
      { key: 'armed', ts, vs: [true] },
      { key: 'cfg', ts, vs: [{ a: [1] }] },
    ]);
    // Acknowledged after the commit: every point is stored now.
    expect(await telemetryCount(server.ctx.db, dev.id, 'pressure')).toBe(1);
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(1);
    expect(await values(dev.id, 'mode')).toEqual(['eco']);
    expect(await values(dev.id, 'armed')).toEqual([true]);
    expect(await values(dev.id, 'cfg')).toEqual([{ a: [1] }]);
    const listed = await offer();
    expect(listed.accepts_undeclared_keys).toBe(true);
    expect(listed.items.map((k) => [k.key, k.value_type, k.value_count]).sort()).toEqual([
      ['armed', 'boolean', 1],
      ['cfg', 'json', 1],
      ['mode', 'string', 1],
      ['pressure', 'number', 2],
    ]);
    expect(listed.items[0].first_seen_at).toBeGreaterThan(Date.now() - 60_000);

    // The key keeps its first type: numbers for `mode` and a string for `pressure` are refused whole as malformed.
    const malformed = await rejectedCount(server.ctx.db, dev.id, 'malformed');
    await publish({ key: 'mode', ts: ts + 1, vs: [3] });
    await publish([
      { key: 'pressure', ts: ts + 1, vs: [1000] },
      { key: 'pressure', ts: ts + 2, vs: ['high'] },
    ]);
    expect(await rejectedCount(server.ctx.db, dev.id, 'malformed')).toBe(malformed + 3);
    expect(await telemetryCount(server.ctx.db, dev.id, 'pressure')).toBe(1);
    // Values of the key's type go on being stored, with no new offer.
    await publish({ key: 'mode', ts: ts + 3, vs: ['boost'] });
    expect(await values(dev.id, 'mode')).toEqual(['eco', 'boost']);
    expect((await offer()).items).toHaveLength(4);
  });

  it('every way in takes undeclared keys: ThingsBoard MQTT and HTTP, the gateway API and a LoRaWAN uplink', async () => {
    const token = await issueToken(tb);
    const tbClient = await mqtt.connectAsync(server.mqttUrl, { username: token, reconnectPeriod: 0, connectTimeout: 5_000 });
    clients.push(tbClient);
    await tbClient.publishAsync('v1/devices/me/telemetry', JSON.stringify({ tb_mqtt: 5 }), { qos: 1 });
    expect(await telemetryCount(server.ctx.db, tb.id, 'tb_mqtt')).toBe(1);

    const http = await fetch(`${server.httpUrl}/api/v1/${token}/telemetry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tb_http: 'on' }),
    });
    expect(http.status).toBe(200);
    expect(await values(tb.id, 'tb_http')).toEqual(['on']);

    const gatewayToken = await issueToken(gateway);
    const marked = await server.api('PUT', paths.deviceGateway(gateway.tangramId), { token: vendor.token, body: { is_gateway: true } });
    expect(marked.status).toBe(200);
    await server.ctx.db.update(devices).set({ name: 'Child' }).where(eq(devices.id, child.id));
    const gw = await mqtt.connectAsync(server.mqttUrl, { username: gatewayToken, reconnectPeriod: 0, connectTimeout: 5_000 });
    clients.push(gw);
    await gw.publishAsync(GATEWAY_TOPICS.telemetry, JSON.stringify({ Child: [{ ts: Date.now() - 1_000, values: { gw_level: 7 } }] }), {
      qos: 1,
    });
    expect(await telemetryCount(server.ctx.db, child.id, 'gw_level')).toBe(1);

    const created = await buildLorawanWebhook(server, vendor.token, {
      projectId,
      tangramId: tb.tangramId,
      devEui: '0303030303030303',
      integration: { mapping: [{ path: 'open', key: 'lora_open' }] },
    });
    const body = JSON.parse(await readFile(new URL('../lorawan/fixtures/chirpstack-up.json', import.meta.url), 'utf8'));
    body.time = new Date().toISOString();
    body.deviceInfo.devEui = '0303030303030303';
    body.object = { open: true };
    const uplink = await fetch(`${server.httpUrl}${created.webhook_path}?event=up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [LORAWAN_SECRET_HEADER]: created.secret },
      body: JSON.stringify(body),
    });
    expect(uplink.status).toBe(200);
    expect(await values(tb.id, 'lora_open')).toEqual([true]);

    const types = Object.fromEntries((await offer()).items.map((k) => [k.key, k.value_type]));
    expect(types).toMatchObject({ tb_mqtt: 'number', tb_http: 'string', gw_level: 'number', lora_open: 'boolean' });
  });

  it(`bounds the offer at ${UNDECLARED_KEYS_MAX} keys: a message that would pass it is refused whole and counted`, async () => {
    const other = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, sensors: [{ key: 'temperature' }] });
    const [d] = other.devices;
    await setAccepting(other.projectId, true);
    const client = await connectMqtt(server.mqttUrl, d.tangramId, d.secret);
    clients.push(client);
    const ts = Date.now() - 1_000;
    const keys = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ key: `${prefix}${i}`, ts, vs: [i] }));
    await publish(keys(UNDECLARED_KEYS_MAX + 1, 'k'), client, d.tangramId);
    expect(await rejectedCount(server.ctx.db, d.id, 'unknown_key')).toBe(UNDECLARED_KEYS_MAX + 1);
    expect((await offer(other.projectId)).items).toEqual([]);

    await publish(keys(UNDECLARED_KEYS_MAX, 'k'), client, d.tangramId);
    expect(await telemetryCount(server.ctx.db, d.id)).toBe(UNDECLARED_KEYS_MAX);
    expect((await offer(other.projectId)).items).toHaveLength(UNDECLARED_KEYS_MAX);
    await publish({ key: 'one_more', ts, vs: [1] }, client, d.tangramId);
    expect(await rejectedCount(server.ctx.db, d.id, 'unknown_key')).toBe(UNDECLARED_KEYS_MAX + 2);
    expect(await telemetryCount(server.ctx.db, d.id, 'one_more')).toBe(0);

    // Discarding one makes room for one more.
    const discarded = await server.api('POST', undeclaredKeyPaths.discard(other.projectId), { token: vendor.token, body: { key: 'k0' } });
    expect(discarded.status).toBe(204);
    await publish({ key: 'one_more', ts, vs: [1] }, client, d.tangramId);
    expect(await telemetryCount(server.ctx.db, d.id, 'one_more')).toBe(1);
  });

  it('the routes are vendor-only and tenant-scoped: 401 without a login, 403 for a user, 404 for another tenant', async () => {
    const user = await buildUser(server, vendor.tenantId);
    const stranger = await buildVendor(server);
    const declare = { key: 'mode', name: 'Mode' };
    const calls = [
      ['GET', undeclaredKeyPaths.list(projectId), undefined],
      ['POST', undeclaredKeyPaths.declare(projectId), declare],
      ['POST', undeclaredKeyPaths.discard(projectId), { key: 'armed' }],
      ['GET', settingsPaths.undeclaredKeySetting(projectId), undefined],
      ['PUT', settingsPaths.undeclaredKeySetting(projectId), { accepts_undeclared_keys: false }],
    ] as const;
    for (const [method, url, body] of calls) {
      expect((await server.api(method, url, { body })).status, `${method} ${url}`).toBe(401);
      expect((await server.api(method, url, { token: user.token, body })).status, `${method} ${url}`).toBe(403);
      expect((await server.api(method, url, { token: stranger.token, body })).status, `${method} ${url}`).toBe(404);
    }
    // Nothing changed: the offer and the setting are as they were.
    const listed = await offer();
    expect(listed.accepts_undeclared_keys).toBe(true);
    expect(listed.items.map((k) => k.key)).toEqual(expect.arrayContaining(['mode', 'armed']));
    const setting = await server.api('GET', settingsPaths.undeclaredKeySetting(projectId), { token: vendor.token });
    expect(setting.body).toEqual({ accepts_undeclared_keys: true });
  });

  it('a declared key becomes a sensor of its type and leaves the offer; a discarded one is refused again', async () => {
    const declared = await server.api('POST', undeclaredKeyPaths.declare(projectId), {
      token: vendor.token,
      body: { key: 'pressure', name: 'Pressure', unit: 'hPa' },
    });
    expect(declared.status).toBe(201);
    const sensors = (await server.api<TSensorList>('GET', sensorPaths.list(projectId), { token: vendor.token })).body.data;
    expect(sensors.find((s) => s.key === 'pressure')).toMatchObject({
      name: 'Pressure',
      unit: 'hPa',
      value_type: 'number',
      value_count: 2,
    });
    expect((await offer()).items.map((k) => k.key)).not.toContain('pressure');
    // Declaring it again, or a key never offered, answers 404.
    for (const key of ['pressure', 'never_seen']) {
      const again = await server.api('POST', undeclaredKeyPaths.declare(projectId), { token: vendor.token, body: { key, name: 'X' } });
      expect(again.status).toBe(404);
    }

    expect((await server.api('POST', undeclaredKeyPaths.discard(projectId), { token: vendor.token, body: { key: 'armed' } })).status).toBe(
      204,
    );
    expect((await offer()).items.map((k) => k.key)).not.toContain('armed');
    const before = await rejectedCount(server.ctx.db, dev.id, 'unknown_key');
    const ts = Date.now() - 500;
    await publish({ key: 'armed', ts, vs: [false] });
    await publish({ key: 'pressure', ts, vs: [990, 1] });
    expect(await rejectedCount(server.ctx.db, dev.id, 'unknown_key')).toBe(before + 1);
    expect(await values(dev.id, 'armed')).toEqual([true]);
    expect(await telemetryCount(server.ctx.db, dev.id, 'pressure')).toBe(2);

    // Turned off, the offered keys are refused again as well.
    await setAccepting(projectId, false);
    await publish({ key: 'tb_mqtt', ts, vs: [1] });
    expect(await rejectedCount(server.ctx.db, dev.id, 'unknown_key')).toBe(before + 2);
  });
});
