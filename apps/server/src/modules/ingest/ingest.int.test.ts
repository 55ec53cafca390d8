import {
  DEVICE_RATE_BURST_POINTS,
  DEVICE_RATE_POINTS_PER_S,
  DEVICE_TS_MAX_AHEAD_MS,
  MAX_POINTS_PER_MESSAGE,
  paths,
  STATUS_LIVE_KEY,
  topics,
  ZLiveMessage,
  type TLiveMessage,
} from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { deviceAuthz } from '../../db/schema.js';
import { connectBrowser, connectMqtt, rejectedCount, subscribeGranted, telemetryCount, waitUntil } from './ingest-test-kit.js';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';

describe(`MQTT ingest and live channel (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let mine: TBuiltProject;
  let theirs: TBuiltProject;
  const clients: MqttClient[] = [];
  const track = <T extends MqttClient>(c: T): T => {
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const vendor = await buildVendor(server);
    mine = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    theirs = await buildDeviceProject(server.ctx.db, { count: 1 });
    vendorToken = vendor.token;
    vendorTenant = vendor.tenantId;
  });
  let vendorToken = '';
  let vendorTenant = 0;
  afterAll(async () => {
    for (const c of clients) await c.endAsync(true).catch(() => undefined);
    await server.stop();
  });

  it('stores a device publish and shows it live to a vendor browser over WebSocket', async () => {
    const [dev] = mine.devices;
    const browser = track(await connectBrowser(server.wsUrl, vendorToken));
    const live: TLiveMessage[] = [];
    browser.on('message', (_t, payload) => live.push(ZLiveMessage.parse(JSON.parse(payload.toString()))));
    const granted = await browser.subscribeAsync(topics.live(dev.tangramId), { qos: 0 });
    expect(granted[0].qos).toBe(0);

    const device = track(await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret));
    const ts = Date.now();
    await device.publishAsync(
      topics.telemetry(dev.tangramId),
      JSON.stringify([
        { key: 'temperature', ts, vs: [23.5] },
        { key: 'vibration', ts, vs: [0.1, 0.2, 0.3] },
      ]),
      { qos: 1 },
    );
    await device.publishAsync(topics.status(dev.tangramId), JSON.stringify({ ts, value: 2 ** 39 + 5 }), { qos: 1 });

    // Acknowledged means committed: the rows are there as soon as the publish resolved.
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(2);
    await waitUntil(() => live.flatMap((m) => m.list).length >= 3);
    const items = live.flatMap((m) => m.list);
    expect(items).toContainEqual({ key: 'temperature', ts, vs: [23.5] });
    expect(items).toContainEqual({ key: 'vibration', ts, vs: [0.1, 0.2, 0.3] });
    expect(items).toContainEqual({ key: STATUS_LIVE_KEY, ts, vs: [2 ** 39 + 5] });
  });

  it('refuses a wrong secret, an unknown device and a bad token with CONNACK "not authorised"', async () => {
    const [dev] = mine.devices;
    await expect(connectMqtt(server.mqttUrl, dev.tangramId, 'wrong-secret')).rejects.toMatchObject({ code: 5 });
    await expect(connectMqtt(server.mqttUrl, 'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFF', dev.secret)).rejects.toMatchObject({ code: 5 });
    await expect(connectBrowser(server.wsUrl, 'not-a-jwt')).rejects.toMatchObject({ code: 5 });
    await expect(connectMqtt(server.mqttUrl, 'anonymous', '')).rejects.toMatchObject({ code: 5 });
  });

  it('drops a device that publishes on another device topic, and stores nothing there', async () => {
    const [a, b] = mine.devices;
    const device = track(await connectMqtt(server.mqttUrl, a.tangramId, a.secret));
    const closed = new Promise<void>((resolve) => device.once('close', () => resolve()));
    device.publish(topics.telemetry(b.tangramId), JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [1] }), { qos: 1 });
    await closed;
    expect(await telemetryCount(server.ctx.db, b.id)).toBe(0);
  });

  it('lets a device subscribe to its own commands and config only', async () => {
    const [a, b] = mine.devices;
    const device = track(await connectMqtt(server.mqttUrl, a.tangramId, a.secret));
    const granted = await subscribeGranted(device, [
      `devices/${a.tangramId}/commands/+`,
      topics.config(a.tangramId),
      topics.config(b.tangramId),
      'devices/#',
    ]);
    expect(granted).toEqual([1, 1, 128, 128]);
  });

  it('refuses a browser subscription to another tenant device, a wildcard, or a device not authorised to a user', async () => {
    const browser = track(await connectBrowser(server.wsUrl, vendorToken));
    const granted = await subscribeGranted(browser, [topics.live(theirs.devices[0].tangramId), 'live/devices/+', 'live/#']);
    expect(granted).toEqual([128, 128, 128]);

    const user = await buildUser(server, vendorTenant);
    const [seen, unseen] = mine.devices;
    await server.ctx.db.insert(deviceAuthz).values({ deviceId: seen.id, accountId: user.accountId });
    const userBrowser = track(await connectBrowser(server.wsUrl, user.token));
    const userGranted = await subscribeGranted(userBrowser, [topics.live(seen.tangramId), topics.live(unseen.tangramId)]);
    expect(userGranted).toEqual([1, 128]);
  });

  it('counts malformed, unknown-key and oversized messages, stores none of them, and keeps ingesting', async () => {
    const dev = mine.devices[2];
    const device = track(await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret));
    const t = topics.telemetry(dev.tangramId);
    const ts = Date.now();
    await device.publishAsync(t, '{not json', { qos: 1 });
    await device.publishAsync(t, JSON.stringify({ key: 'temperature', ts, vs: ['hot'] }), { qos: 1 });
    await device.publishAsync(
      t,
      JSON.stringify([
        { key: 'temperature', ts, vs: [1] },
        { key: 'no_such_key', ts, vs: [1] },
      ]),
      { qos: 1 },
    );
    const tooMany = Array.from({ length: MAX_POINTS_PER_MESSAGE + 1 }, (_, i) => ({ key: 'temperature', ts: ts + i, vs: [1] }));
    await device.publishAsync(t, JSON.stringify(tooMany), { qos: 1 });
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(0);
    expect(await rejectedCount(server.ctx.db, dev.id, 'malformed')).toBe(2);
    expect(await rejectedCount(server.ctx.db, dev.id, 'unknown_key')).toBe(2);
    expect(await rejectedCount(server.ctx.db, dev.id, 'too_many_points')).toBe(MAX_POINTS_PER_MESSAGE + 1);

    await device.publishAsync(t, JSON.stringify({ key: 'humidity', ts, vs: [40] }), { qos: 1 });
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(1);
  });

  it('refuses a message over the device rate whole, counting it as rate_limited', async () => {
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendorTenant })).devices;
    const device = track(await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret));
    const base = 1_600_000_000_000;
    // Three bursts' worth at 4,000 points per second of the device's own clock (4 keys, every ms): four times the rate.
    const keys = ['temperature', 'humidity', 'vibration', 'current'];
    const burstMessages = Math.ceil(DEVICE_RATE_BURST_POINTS / MAX_POINTS_PER_MESSAGE);
    const sends = Array.from({ length: burstMessages * 3 }, (_, m) =>
      JSON.stringify(
        Array.from({ length: MAX_POINTS_PER_MESSAGE }, (_, i) => {
          const n = m * MAX_POINTS_PER_MESSAGE + i;
          return { key: keys[n % 4], ts: base + Math.floor(n / 4), vs: [i] };
        }),
      ),
    );
    await Promise.all(sends.map((p) => device.publishAsync(topics.telemetry(dev.tangramId), p, { qos: 1 })));
    const stored = await telemetryCount(server.ctx.db, dev.id);
    const limited = await rejectedCount(server.ctx.db, dev.id, 'rate_limited');
    expect(limited).toBeGreaterThanOrEqual(MAX_POINTS_PER_MESSAGE);
    expect(stored + limited).toBe(sends.length * MAX_POINTS_PER_MESSAGE);
    expect(stored % MAX_POINTS_PER_MESSAGE).toBe(0);
  });

  it('stores a backlog read all at once when its timestamps keep to the rate, refusing nothing', async () => {
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendorTenant })).devices;
    const device = track(await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret));
    // 12 s of points at exactly the documented rate (one per ms of the device's clock), as a device that was cut off
    // (or whose server fell behind) sends its stored backlog: the server reads all of it within a moment.
    const base = Date.now() - 60_000;
    const perMessage = 200;
    const sends = Array.from({ length: (12 * DEVICE_RATE_POINTS_PER_S) / perMessage }, (_, m) =>
      JSON.stringify(Array.from({ length: perMessage }, (_, i) => ({ key: 'current', ts: base + m * perMessage + i, vs: [i] }))),
    );
    await Promise.all(sends.map((p) => device.publishAsync(topics.telemetry(dev.tangramId), p, { qos: 1 })));
    expect(await rejectedCount(server.ctx.db, dev.id, 'rate_limited')).toBe(0);
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(sends.length * perMessage);
  });

  it('refuses timestamps before 2000 or more than a day ahead as ts_out_of_range, so latest stays the real newest', async () => {
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendorTenant })).devices;
    const device = track(await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret));
    const t = topics.telemetry(dev.tangramId);
    const now = Date.now();
    await device.publishAsync(t, JSON.stringify({ key: 'temperature', ts: now, vs: [21] }), { qos: 1 });
    await device.publishAsync(t, JSON.stringify({ key: 'temperature', ts: Number.MAX_SAFE_INTEGER, vs: [99] }), { qos: 1 });
    await device.publishAsync(t, JSON.stringify({ key: 'temperature', ts: now + DEVICE_TS_MAX_AHEAD_MS + 60_000, vs: [98] }), { qos: 1 });
    await device.publishAsync(
      t,
      JSON.stringify([
        { key: 'temperature', ts: now - 1, vs: [20] },
        { key: 'humidity', ts: 5, vs: [97] },
      ]),
      { qos: 1 },
    );
    await device.publishAsync(topics.status(dev.tangramId), JSON.stringify({ ts: Number.MAX_SAFE_INTEGER, value: 1 }), { qos: 1 });
    expect(await rejectedCount(server.ctx.db, dev.id, 'ts_out_of_range')).toBe(5);
    expect(await telemetryCount(server.ctx.db, dev.id)).toBe(1);
    const latest = await server.api<{ key: string; ts: number }[]>('GET', `${paths.tsLatest}?tangramId=${dev.tangramId}`, {
      token: vendorToken,
    });
    expect(latest.body.map((l) => [l.key, l.ts])).toEqual([['temperature', now]]);
  });

  it('stores a resent point once', async () => {
    const dev = mine.devices[1];
    const device = track(await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret));
    const point = JSON.stringify({ key: 'current', ts: 1_700_000_000_000, vs: [1.5] });
    await device.publishAsync(topics.telemetry(dev.tangramId), point, { qos: 1 });
    await device.publishAsync(topics.telemetry(dev.tangramId), point, { qos: 1 });
    expect(await telemetryCount(server.ctx.db, dev.id, 'current')).toBe(1);
  });
});
