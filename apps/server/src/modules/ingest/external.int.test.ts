import { topics, ZLiveMessage, type TLiveMessage } from '@tessera/contracts';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVendor } from '../../../test/factories.js';
import { EXTERNAL_MQTT_URL, externalBrokerReachable } from '../../../test/external-broker.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { connectBrowser, telemetryCount, waitUntil } from './ingest-test-kit.js';
import { buildDeviceProject } from '../../../test/device-factory.js';

const reachable = await externalBrokerReachable();

describe.skipIf(!reachable)(`external broker mode, MQTT_URL (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer({ mqttUrl: EXTERNAL_MQTT_URL });
  });
  afterAll(() => server.stop());

  it('ingests QoS 1 telemetry from the external broker, acknowledges after commit, and relays live messages', async () => {
    const vendor = await buildVendor(server);
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices;
    const browser = await connectBrowser(server.wsUrl, vendor.token);
    const live: TLiveMessage[] = [];
    browser.on('message', (_t, p) => live.push(ZLiveMessage.parse(JSON.parse(p.toString()))));
    await browser.subscribeAsync(topics.live(dev.tangramId), { qos: 0 });

    // On the external broker the device's credentials are the broker's business; this Mosquitto is anonymous.
    const device = await mqtt.connectAsync(EXTERNAL_MQTT_URL, { username: dev.tangramId, password: dev.secret, reconnectPeriod: 0 });
    const ts = Date.now();
    await device.publishAsync(
      topics.telemetry(dev.tangramId),
      JSON.stringify([
        { key: 'temperature', ts, vs: [21] },
        { key: 'humidity', ts, vs: [50] },
      ]),
      { qos: 1 },
    );
    await device.publishAsync(topics.status(dev.tangramId), JSON.stringify({ ts, value: 7 }), { qos: 1 });
    await waitUntil(async () => (await telemetryCount(server.ctx.db, dev.id)) === 2);
    await waitUntil(() => live.flatMap((m) => m.list).length >= 3);
    expect(live.flatMap((m) => m.list)).toContainEqual({ key: 'temperature', ts, vs: [21] });

    // The server's own publishes go to the external broker (e.g. a retained config a device reads).
    await server.ctx.bus.publish(topics.config(dev.tangramId), JSON.stringify({ version: 1, sensors: [] }), { qos: 1, retain: true });
    const reader = await mqtt.connectAsync(EXTERNAL_MQTT_URL, { reconnectPeriod: 0 });
    const got = new Promise<string>((resolve) => reader.on('message', (_t, p) => resolve(p.toString())));
    await reader.subscribeAsync(topics.config(dev.tangramId));
    expect(JSON.parse(await got)).toEqual({ version: 1, sensors: [] });
    await server.ctx.bus.publish(topics.config(dev.tangramId), '', { qos: 1, retain: true });
    expect(server.ctx.bus.isUp()).toBe(true);
    for (const c of [device, browser, reader]) await c.endAsync();
  });
});
