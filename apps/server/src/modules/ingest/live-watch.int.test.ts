import { topics, ZLiveMessage, type TLiveMessage } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { connectBrowser, connectMqtt, telemetryCount, waitUntil } from './ingest-test-kit.js';

describe(`live messages of watched devices only (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let device: TBuiltDevice;
  let token: string;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    const vendor = await buildVendor(server);
    token = vendor.token;
    [device] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 })).devices;
  });
  afterAll(async () => {
    for (const c of clients) await c.endAsync(true).catch(() => undefined);
    await server.stop();
  });

  it('stores the points of a device nobody watches, and shows its next points live once a browser subscribes', async () => {
    const dev = await connectMqtt(server.mqttUrl, device.tangramId, device.secret);
    clients.push(dev);
    const topic = topics.telemetry(device.tangramId);
    const base = Date.now() - 10_000;
    const publish = (i: number) => dev.publishAsync(topic, JSON.stringify({ key: 'temperature', ts: base + i, vs: [i] }), { qos: 1 });
    await Promise.all([0, 1, 2].map(publish));
    expect(await telemetryCount(server.ctx.db, device.id)).toBe(3);

    const browser = await connectBrowser(server.wsUrl, token);
    clients.push(browser);
    const live: TLiveMessage[] = [];
    browser.on('message', (_t, payload) => live.push(ZLiveMessage.parse(JSON.parse(payload.toString()))));
    await browser.subscribeAsync(topics.live(device.tangramId), { qos: 0 });
    await Promise.all([3, 4].map(publish));

    await waitUntil(() => live.flatMap((m) => m.list).length >= 2);
    expect(live.flatMap((m) => m.list).map((p) => p.ts)).toEqual([base + 3, base + 4]);
    expect(await telemetryCount(server.ctx.db, device.id)).toBe(5);
  });
});
