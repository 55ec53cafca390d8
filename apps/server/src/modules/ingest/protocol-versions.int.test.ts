/**
 * Which MQTT versions each mode speaks (docs/protocol.md "Protocol versions"): the embedded broker (Aedes 1.2.0)
 * takes MQTT 3.1.1 and 3.1 and refuses 5 with CONNACK 1 "unacceptable protocol version"; in external-broker mode
 * devices speak what that broker speaks — the Mosquitto of these machines takes 5 and 3.1.1 — and the server itself
 * joins it with MQTT 5 (shared subscriptions).
 */
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { EXTERNAL_MQTT_URL, externalBrokerReachable } from '../../../test/external-broker.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { clientIdFor } from './ingest-test-kit.js';

/** Connects with `protocolVersion`; answers 'connected' or the refusal's CONNACK code. */
async function tryVersion(url: string, protocolVersion: 3 | 4 | 5, username?: string, password?: string): Promise<string> {
  let client: MqttClient | undefined;
  try {
    client = await mqtt.connectAsync(url, {
      protocolVersion,
      username,
      password,
      clientId: username && password ? clientIdFor(username, password) : '',
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
    await client.endAsync();
    return 'connected';
  } catch (err) {
    return `refused ${(err as { code?: number }).code}`;
  }
}

const externalUp = await externalBrokerReachable();

describe(`MQTT protocol versions (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let device: TBuiltDevice;
  beforeAll(async () => {
    server = await startTestServer();
    device = (await buildDeviceProject(server.ctx.db)).devices[0];
  });
  afterAll(() => server?.stop());

  it('embedded: a device logs in with 3.1.1 and 3.1; MQTT 5 is refused as an unacceptable protocol version', async () => {
    expect(await tryVersion(server.mqttUrl, 4, device.tangramId, device.secret)).toBe('connected');
    expect(await tryVersion(server.mqttUrl, 3, device.tangramId, device.secret)).toBe('connected');
    expect(await tryVersion(server.mqttUrl, 5, device.tangramId, device.secret)).toBe('refused 1');
  });

  it.skipIf(!externalUp)('external broker mode: the broker of MQTT_URL takes MQTT 5 and 3.1.1', async () => {
    expect(await tryVersion(EXTERNAL_MQTT_URL, 5)).toBe('connected');
    expect(await tryVersion(EXTERNAL_MQTT_URL, 4)).toBe('connected');
  });
});
