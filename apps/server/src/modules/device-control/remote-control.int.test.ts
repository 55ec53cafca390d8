/**
 * Remote control end to end: the API publishes a command to a real MQTT client acting as
 * the device and answers with its reply — the simulator for getDeviceInfo and sensorCommand read, scripted devices
 * for the timeout, a wrong device's reply, a malformed reply and concurrent commands; the audit log lists them.
 */
import {
  deviceControlPaths as p,
  ErrorCode,
  topics,
  type TDeviceCommandLog,
  type TDeviceInfoAnswer,
  type TPage,
  type TSensorCommandAnswer,
} from '@tessera/contracts';
import { SIM_FIRMWARE_VERSION, startSimulator, type TSimulator } from '@tessera/device-sim';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { connectMqtt, waitUntil } from '../ingest/ingest-test-kit.js';
import { startScriptedDevice, type TScriptedDevice } from './device-control-test-kit.js';

/** Short enough to keep the timeout tests quick, long enough for a loaded CI machine's round trip. */
const TIMEOUT_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`remote control (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let outsider: TBuiltAccount;
  let devs: TBuiltDevice[];
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    server = await startTestServer({ commandTimeoutMs: TIMEOUT_MS });
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    outsider = await buildVendor(server);
    devs = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 6 })).devices;
    await authorise(server.ctx.db, devs[0].id, user.accountId);
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });
  afterAll(() => server.stop());

  const sim = async (device: TBuiltDevice, keys = ['temperature', 'humidity', 'vibration']): Promise<TSimulator> => {
    const s = await startSimulator({ url: server.mqttUrl, devices: [{ ...device, keys }], rateHz: 1, statusPeriodMs: 60_000 });
    stops.push(() => s.stop());
    return s;
  };
  const scripted = async (device: TBuiltDevice, script: Parameters<typeof startScriptedDevice>[2]): Promise<TScriptedDevice> => {
    const d = await startScriptedDevice(server.mqttUrl, device, script);
    stops.push(() => d.stop());
    return d;
  };
  const info = (device: TBuiltDevice, token?: string) =>
    server.api<TDeviceInfoAnswer>('POST', p.getDeviceInfo(device.tangramId), { token });
  const sensor = (device: TBuiltDevice, body: unknown, token = vendor.token) =>
    server.api<TSensorCommandAnswer>('POST', p.sensorCommand(device.tangramId), { token, body });
  const log = (device: TBuiltDevice, token = vendor.token) =>
    server.api<TPage<TDeviceCommandLog>>('GET', p.commands(device.tangramId), { token });

  describe('refusals: 401 without a token, 404 for another tenant and for a user not authorised', () => {
    const routes: [string, (d: TBuiltDevice) => string, unknown?][] = [
      ['POST', (d) => p.getDeviceInfo(d.tangramId)],
      ['POST', (d) => p.sensorCommand(d.tangramId), { key: 'temperature' }],
      ['GET', (d) => p.commands(d.tangramId)],
    ];
    for (const [method, url, body] of routes) {
      it(`${method} ${url({ tangramId: '{id}' } as TBuiltDevice)}`, async () => {
        const m = method as 'GET';
        expect((await server.api(m, url(devs[0]), { body })).status).toBe(401);
        expect((await server.api(m, url(devs[0]), { body, token: outsider.token })).status).toBe(404);
        expect((await server.api(m, url(devs[1]), { body, token: user.token })).status).toBe(404);
        expect((await server.api(m, url({ tangramId: 'F'.repeat(30) } as TBuiltDevice), { body, token: vendor.token })).status).toBe(404);
        expect((await server.api(m, url({ tangramId: 'not-an-id' } as TBuiltDevice), { body, token: vendor.token })).status).toBe(400);
      });
    }
  });

  it('getDeviceInfo: the simulator answers firmware, uptime, RSSI and its sensors — for the vendor and an authorised user', async () => {
    await sim(devs[0]);
    const res = await info(devs[0], vendor.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.firmware_version).toBe(SIM_FIRMWARE_VERSION);
    expect(res.body.result.uptime_s).toBeGreaterThanOrEqual(0);
    expect(res.body.result.rssi_dbm).toBeLessThan(0);
    expect(res.body.result.sensors).toEqual([
      { key: 'temperature', enabled: true, upload_period_ms: 1000 },
      { key: 'humidity', enabled: true, upload_period_ms: 1000 },
      { key: 'vibration', enabled: true, upload_period_ms: 1000 },
    ]);
    expect(res.body.latency_ms).toBeLessThan(TIMEOUT_MS);
    expect(res.body.req_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await info(devs[0], user.token)).status).toBe(200);
  });

  it('sensorCommand read answers the current reading; bad keys and actions are refused before anything is sent', async () => {
    await sim(devs[0]);
    const read = await sensor(devs[0], { key: 'vibration', action: 'read' });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.result).toMatchObject({ key: 'vibration', vs: [expect.any(Number), expect.any(Number), expect.any(Number)] });
    expect((await sensor(devs[0], { key: 'temperature' }, user.token)).status).toBe(200);

    const unknownKey = await sensor(devs[0], { key: 'pressure' });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body).toMatchObject({ code: ErrorCode.Validation });
    expect((await sensor(devs[0], { key: 'temperature', action: 'x'.repeat(33) })).status).toBe(400);
    expect((await sensor(devs[0], { key: 'temperature', action: 'x'.repeat(32) })).status).toBe(502);
    expect((await sensor(devs[0], {})).status).toBe(400);
  });

  it('only vendors send actions other than read; the device refusing one is a 502 DEVICE_ERROR with its message', async () => {
    await sim(devs[0]);
    const asUser = await sensor(devs[0], { key: 'temperature', action: 'calibrate' }, user.token);
    expect(asUser.status).toBe(403);
    const asVendor = await sensor(devs[0], { key: 'temperature', action: 'calibrate' });
    expect(asVendor.status).toBe(502);
    expect(asVendor.body).toEqual({ code: ErrorCode.DeviceError, message: 'the device answered with an error: unknown action calibrate' });
  });

  it('a device that is not connected: 409 DEVICE_OFFLINE at once, nothing published', async () => {
    const started = Date.now();
    const res = await info(devs[1], vendor.token);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: ErrorCode.DeviceOffline, message: 'the device is not connected' });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
  });

  it('a connected device that does not answer: 504 DEVICE_TIMEOUT after COMMAND_TIMEOUT_MS, with a clear message', async () => {
    const silent = await scripted(devs[2], () => null);
    const started = Date.now();
    const res = await info(devs[2], vendor.token);
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ code: ErrorCode.DeviceTimeout, message: `the device did not answer within ${TIMEOUT_MS / 1000} s` });
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(silent.received).toHaveLength(1);
    expect(silent.received[0]).toMatchObject({ name: 'getDeviceInfo', params: {} });
  });

  it('a reply from another device can never satisfy a request: the broker drops it, the request times out', async () => {
    const [victim, intruder] = [devs[3], devs[4]];
    const target = await scripted(victim, () => null);
    const other = await connectMqtt(server.mqttUrl, intruder.tangramId, intruder.secret);
    stops.push(async () => {
      other.end(true);
    });
    const closed = new Promise<void>((resolve) => other.once('close', () => resolve()));
    const pending = info(victim, vendor.token);
    await waitUntil(() => target.received.length === 1);
    const { reqId } = target.received[0];
    const forged = JSON.stringify({ ok: true, result: { firmwareVersion: 'forged', uptimeMs: 1, rssiDbm: -1, sensors: [] } });
    // The intruder's own reply topic with the stolen request id is not the victim's: it is not listened to.
    await other.publishAsync(topics.commandReply(intruder.tangramId, reqId), forged, { qos: 1 });
    // Publishing on the victim's reply topic breaks the ACL: the broker closes the intruder's connection.
    other.publish(topics.commandReply(victim.tangramId, reqId), forged, { qos: 1 });
    await closed;
    const res = await pending;
    expect(res.status).toBe(504);
  });

  it('concurrent commands to one device do not mix: each answer goes to its own request', async () => {
    const order: string[] = [];
    // Answers the first command last: replies arrive in the reverse order of the requests.
    await scripted(devs[5], async (c) => {
      const key = String(c.params.key);
      order.push(key);
      await sleep(key === 'temperature' ? 400 : key === 'humidity' ? 200 : 0);
      return { ok: true, result: { key, ts: Date.now(), vs: [key.length] } };
    });
    const keys = ['temperature', 'humidity', 'current'];
    const answers = await Promise.all(keys.map((key) => sensor(devs[5], { key })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => (a.body.result as { key: string }).key)).toEqual(keys);
    expect(answers.map((a) => (a.body.result as { vs: number[] }).vs[0])).toEqual(keys.map((k) => k.length));
    expect(new Set(answers.map((a) => a.body.req_id)).size).toBe(3);
    expect(order).toHaveLength(3);
  });

  it('a malformed reply or result is a 502 DEVICE_ERROR, not a 500', async () => {
    const replies = ['{not json', JSON.stringify({ ok: 'yes' }), JSON.stringify({ ok: true, result: { firmwareVersion: 1 } })];
    let i = 0;
    await scripted(devs[2], () => replies[i++]);
    for (const _ of replies) {
      const res = await info(devs[2], vendor.token);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: ErrorCode.DeviceError });
    }
  });

  it('every command is audited — who, what, outcome, latency — a vendor sees all, a user only its own', async () => {
    const fresh = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 })).devices[0];
    await authorise(server.ctx.db, fresh.id, user.accountId);
    expect((await info(fresh, user.token)).status).toBe(409);
    const simulated = await sim(fresh);
    expect((await info(fresh, vendor.token)).status).toBe(200);
    expect((await sensor(fresh, { key: 'temperature' }, user.token)).status).toBe(200);
    expect(simulated.stats().commandsAnswered).toBe(2);

    const all = await log(fresh);
    expect(all.status).toBe(200);
    expect(all.body.total_items).toBe(3);
    const [newest, middle, oldest] = all.body.data;
    expect(newest).toMatchObject({ name: 'sensorCommand', params: { key: 'temperature', action: 'read' }, outcome: 'ok' });
    expect(newest.account_email).toBe(user.email);
    expect(newest.latency_ms).toBeGreaterThanOrEqual(0);
    expect(middle).toMatchObject({ name: 'getDeviceInfo', outcome: 'ok', account_email: vendor.email, error: null });
    expect(oldest).toMatchObject({ name: 'getDeviceInfo', outcome: 'offline', latency_ms: null, account_email: user.email });
    expect(newest.created_at).toBeGreaterThanOrEqual(oldest.created_at);

    const own = await log(fresh, user.token);
    expect(own.body.data.map((c) => c.account_email)).toEqual([user.email, user.email]);
  });
});
