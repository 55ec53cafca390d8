/**
 * Client ids belong to the identity that logs in (contracts client-ids.ts, docs/protocol.md "Client ids"): another
 * tenant's device or a browser reusing a device's client id is refused with CONNACK 2 "identifier rejected" and the
 * device that holds the id stays connected and keeps publishing; the device's own reconnect still takes over.
 */
import { browserClientId, deviceClientId, topics } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { BROWSER_USERNAME } from './auth.js';
import { connectMqtt, telemetryCount, waitUntil } from './ingest-test-kit.js';

describe(`MQTT client ids bound to the identity (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let victim: TBuiltDevice;
  let attacker: TBuiltDevice;
  let vendor: { accountId: number; token: string };
  const clients: MqttClient[] = [];
  const track = (c: MqttClient) => {
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    server = await startTestServer();
    [victim] = (await buildDeviceProject(server.ctx.db, { count: 1 })).devices;
    [attacker] = (await buildDeviceProject(server.ctx.db, { count: 1 })).devices;
    vendor = await buildVendor(server);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await server?.stop();
  });

  const publishPoint = (c: MqttClient, d: TBuiltDevice, ts: number) =>
    c.publishAsync(topics.telemetry(d.tangramId), JSON.stringify({ key: 'temperature', ts, vs: [20] }), { qos: 1 });

  it("refuses another tenant's device and a browser using a device's client id; the device stays connected", async () => {
    const owner = track(await connectMqtt(server.mqttUrl, victim.tangramId, victim.secret, { clientId: deviceClientId(victim.tangramId) }));
    let ownerClosed = false;
    owner.on('close', () => {
      ownerClosed = true;
    });
    const before = server.messaging.brokerRefusals().client_id_rejected;
    for (let i = 0; i < 5; i++) {
      await expect(
        connectMqtt(server.mqttUrl, attacker.tangramId, attacker.secret, { clientId: deviceClientId(victim.tangramId) }),
      ).rejects.toMatchObject({ code: 2 });
    }
    await expect(
      connectMqtt(server.wsUrl, BROWSER_USERNAME, vendor.token, { clientId: deviceClientId(victim.tangramId) }),
    ).rejects.toMatchObject({ code: 2 });
    expect(server.messaging.brokerRefusals().client_id_rejected).toBe(before + 6);
    const t0 = Date.now() - 60_000;
    for (let i = 0; i < 3; i++) await publishPoint(owner, victim, t0 + i);
    expect(ownerClosed).toBe(false);
    expect(owner.connected).toBe(true);
    expect(await telemetryCount(server.ctx.db, victim.id)).toBe(3);
  });

  it("refuses a device using a client id of a browser's namespace, and a browser using another account's", async () => {
    await expect(
      connectMqtt(server.mqttUrl, attacker.tangramId, attacker.secret, { clientId: browserClientId(vendor.accountId, 'tab') }),
    ).rejects.toMatchObject({ code: 2 });
    await expect(
      connectMqtt(server.wsUrl, BROWSER_USERNAME, vendor.token, { clientId: browserClientId(vendor.accountId + 1, 'tab') }),
    ).rejects.toMatchObject({ code: 2 });
    await expect(connectMqtt(server.mqttUrl, attacker.tangramId, attacker.secret, { clientId: 'sim-anything' })).rejects.toMatchObject({
      code: 2,
    });
    const browser = track(
      await connectMqtt(server.wsUrl, BROWSER_USERNAME, vendor.token, { clientId: browserClientId(vendor.accountId, 'tab') }),
    );
    expect(browser.connected).toBe(true);
  });

  it('takes the id namespace case-insensitively, assigns one for an empty id, and lets the device take over its own session', async () => {
    const lower = track(
      await connectMqtt(server.mqttUrl, attacker.tangramId, attacker.secret, { clientId: `${attacker.tangramId.toLowerCase()}-modem` }),
    );
    expect(lower.connected).toBe(true);
    const assigned = track(await connectMqtt(server.mqttUrl, attacker.tangramId, attacker.secret, { clientId: '', clean: true }));
    expect(assigned.connected).toBe(true);

    const first = track(await connectMqtt(server.mqttUrl, attacker.tangramId, attacker.secret, { clientId: attacker.tangramId }));
    const firstClosed = new Promise<void>((resolve) => first.once('close', () => resolve()));
    const second = track(await connectMqtt(server.mqttUrl, attacker.tangramId, attacker.secret, { clientId: attacker.tangramId }));
    await firstClosed;
    await publishPoint(second, attacker, Date.now() - 1_000);
    await waitUntil(async () => (await telemetryCount(server.ctx.db, attacker.id)) === 1);
  });
});
