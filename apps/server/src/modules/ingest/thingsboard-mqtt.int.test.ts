/**
 * ThingsBoard's MQTT device API on the embedded broker (docs/protocol.md "ThingsBoard device API"): a device logs in
 * with its access token as username, publishes `v1/devices/me/telemetry` in the flat, timestamped and array forms,
 * and is acknowledged after the commit; refusals as on the native topic (attributes and RPC: attributes.int.test.ts,
 * device-apis/rpc.int.test.ts). Real clients: MQTT.js and mosquitto_pub.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { MAX_POINTS_PER_MESSAGE, MQTT_MAX_PACKET_BYTES, paths, type TDeviceCredentials } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { rowsOf } from '../../db/client.js';
import { connectMqtt, rejectedCount, subscribeGranted, telemetryCount } from './ingest-test-kit.js';

const run = promisify(execFile);
const TOPIC = 'v1/devices/me/telemetry';

describe(`ThingsBoard MQTT device API (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let dev: TBuiltDevice;
  let other: TBuiltDevice;
  let token = '';
  let otherToken = '';
  const clients: MqttClient[] = [];

  const connect = async (username: string, extra: IClientOptions = {}): Promise<MqttClient> => {
    const c = await mqtt.connectAsync(server.mqttUrl, { username, reconnectPeriod: 0, connectTimeout: 5_000, ...extra });
    clients.push(c);
    return c;
  };
  const loginCode = async (username: string, password?: string): Promise<number> => {
    try {
      await (await mqtt.connectAsync(server.mqttUrl, { username, password, reconnectPeriod: 0, connectTimeout: 5_000 })).endAsync();
      return 0;
    } catch (err) {
      return (err as { code?: number }).code ?? -1;
    }
  };
  const closedBy = (c: MqttClient) => new Promise<void>((resolve) => c.once('close', () => resolve()));
  const storedTs = async (deviceId: number, key: string): Promise<number[]> =>
    rowsOf<{ ts: number | string }>(
      await server.ctx.db.execute(
        sql`select ts from telemetry join telemetry_keys k on k.id = key_id where device_id = ${deviceId} and k.key = ${key} order by ts`,
      ),
    ).map((r) => Number(r.ts));

  beforeAll(async () => {
    server = await startTestServer();
    const vendor = await buildVendor(server);
    [dev, other] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 })).devices;
    const issue = async (d: TBuiltDevice) =>
      (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(d.tangramId), { token: vendor.token })).body
        .access_token as string;
    token = await issue(dev);
    otherToken = await issue(other);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(() => server.stop());

  it('refuses a wrong token, a Tangram ID without password and the token given as a password (CONNACK 5)', async () => {
    expect(await loginCode('not-a-token')).toBe(5);
    expect(await loginCode(`${token}x`)).toBe(5);
    expect(await loginCode(dev.tangramId)).toBe(5);
    expect(await loginCode(dev.tangramId, token)).toBe(5);
    expect(await loginCode(token, 'any password')).toBe(0);
  });

  it('stores the flat form at the receive time, the timestamped form and an array of both, PUBACK after commit', async () => {
    const c = await connect(token);
    const before = Date.now();
    await c.publishAsync(TOPIC, JSON.stringify({ temperature: 25, humidity: 60.5 }), { qos: 1 });
    // The PUBACK came after the commit: the points are stored now.
    const [flatTs] = await storedTs(dev.id, 'temperature');
    expect(flatTs).toBeGreaterThanOrEqual(before);
    expect(flatTs).toBeLessThanOrEqual(Date.now());
    expect(await telemetryCount(server.ctx.db, dev.id, 'humidity')).toBe(1);
    const ts = Date.now() - 60_000;
    await c.publishAsync(TOPIC, JSON.stringify({ ts, values: { temperature: 21 } }), { qos: 1 });
    await c.publishAsync(
      TOPIC,
      JSON.stringify([
        { ts: ts - 1, values: { current: 1.5 } },
        { ts: ts - 2, values: { current: 1.25, temperature: 20 } },
      ]),
      {
        qos: 1,
      },
    );
    expect(await storedTs(dev.id, 'current')).toEqual([ts - 2, ts - 1]);
    expect(await storedTs(dev.id, 'temperature')).toEqual([ts - 2, ts, flatTs]);
    expect(await telemetryCount(server.ctx.db, other.id)).toBe(0);
  });

  it('counts malformed JSON, an undeclared key, a value that is not a number and over 1000 values, storing none of them', async () => {
    const c = await connect(token);
    const count = (reason: string) => rejectedCount(server.ctx.db, dev.id, reason);
    const malformed = await count('malformed');
    const unknown = await count('unknown_key');
    const tooMany = await count('too_many_points');
    const stored = await telemetryCount(server.ctx.db, dev.id);
    await c.publishAsync(TOPIC, '{"temperature": 2', { qos: 1 });
    await c.publishAsync(TOPIC, JSON.stringify({ temperature: 1, pressure: 1013 }), { qos: 1 });
    await c.publishAsync(TOPIC, JSON.stringify({ temperature: 'warm' }), { qos: 1 });
    await c.publishAsync(TOPIC, JSON.stringify({ temperature: true }), { qos: 1 });
    await c.publishAsync(TOPIC, JSON.stringify({ ts: 'yesterday', values: { temperature: 1 } }), { qos: 1 });
    const many = Array.from({ length: MAX_POINTS_PER_MESSAGE + 1 }, (_, i) => ({
      ts: Date.now() - 10_000 - i,
      values: { temperature: i },
    }));
    await c.publishAsync(TOPIC, JSON.stringify(many), { qos: 1 });
    expect(await count('malformed')).toBe(malformed + 4);
    expect(await count('unknown_key')).toBe(unknown + 2);
    expect(await count('too_many_points')).toBe(tooMany + MAX_POINTS_PER_MESSAGE + 1);
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(stored);
  });

  it('closes a token login that publishes off its v1/devices/me topics or oversized, and refuses other subscriptions', async () => {
    const native = await connect(token);
    const closedNative = closedBy(native);
    native.publish(`devices/${dev.tangramId}/telemetry`, JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [99] }), { qos: 1 });
    await closedNative;
    const attributes = await connect(token);
    const closedAttributes = closedBy(attributes);
    attributes.publish('v1/devices/me/provision', JSON.stringify({ secretKey: 'x' }), { qos: 1 });
    await closedAttributes;
    const big = await connect(token);
    const closedBig = closedBy(big);
    big.publish(TOPIC, Buffer.alloc(MQTT_MAX_PACKET_BYTES + 1, 0x20), { qos: 1 });
    await closedBig;
    const sub = await connect(token);
    expect(
      await subscribeGranted(sub, ['v1/devices/me/telemetry', `devices/${dev.tangramId}/commands/+`, '#', 'v1/devices/me/rpc/request/+']),
    ).toEqual([128, 128, 128, 1]);
    expect(await storedTs(dev.id, 'temperature')).not.toContain(99);
  });

  it("keeps two devices' equal client ids apart, and a native login's id from a token login's", async () => {
    const a = await connect(token, { clientId: 'esp32' });
    const b = await connect(otherToken, { clientId: 'esp32' });
    const nativeLogin = await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret, { clientId: dev.tangramId });
    clients.push(nativeLogin);
    const sameId = await connect(token, { clientId: dev.tangramId });
    await a.publishAsync(TOPIC, JSON.stringify({ current: 3 }), { qos: 1 });
    await b.publishAsync(TOPIC, JSON.stringify({ current: 4 }), { qos: 1 });
    await sameId.publishAsync(TOPIC, JSON.stringify({ current: 5 }), { qos: 1 });
    expect([a.connected, b.connected, nativeLogin.connected, sameId.connected]).toEqual([true, true, true, true]);
    expect(await telemetryCount(server.ctx.db, other.id, 'current')).toBe(1);
  });

  it('takes mosquitto_pub as ThingsBoard documents it (no client id, no password, QoS 1)', async () => {
    const before = await telemetryCount(server.ctx.db, other.id, 'humidity');
    const port = new URL(server.mqttUrl).port;
    await run(
      '/usr/bin/mosquitto_pub',
      ['-h', '127.0.0.1', '-p', port, '-q', '1', '-t', TOPIC, '-u', otherToken, '-m', '{"humidity":42}'],
      {
        timeout: 10_000,
      },
    );
    expect(await telemetryCount(server.ctx.db, other.id, 'humidity')).toBe(before + 1);
    await expect(
      run('/usr/bin/mosquitto_pub', ['-h', '127.0.0.1', '-p', port, '-q', '1', '-t', TOPIC, '-u', 'wrong', '-m', '{}'], {
        timeout: 10_000,
      }),
    ).rejects.toThrow();
  });
});
