/**
 * A device that resends its backlog the moment it logs in is not thrown off (broker-guard.ts "limitPacketSize"):
 * a QoS 1 message of 48 KB — over the before-login limit, within the after-login one — sent in the same TCP write
 * as its CONNECT, and one sent right after the CONNACK, are both acknowledged and stored, 50 times over.
 */
import { MQTT_MAX_PACKET_BYTES, MQTT_MAX_PACKET_BYTES_BEFORE_LOGIN } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { BACKLOG_POINTS, BACKLOG_SPACING_MS, backlogMessage, publishBacklogAtLogin } from '../../../test/floods.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { telemetryCount } from './ingest-test-kit.js';

const ROUNDS = 50;

describe(`a device's backlog at login (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let device: TBuiltDevice;

  beforeAll(async () => {
    server = await startTestServer();
    [device] = (await buildDeviceProject(server.ctx.db, { count: 1 })).devices;
  });
  afterAll(() => server?.stop());

  it(`acknowledges a 48 KB QoS 1 message in the CONNECT's TCP write and one right after CONNACK, ${ROUNDS} times`, async () => {
    const size = Buffer.byteLength(backlogMessage(0));
    expect(size).toBeGreaterThan(MQTT_MAX_PACKET_BYTES_BEFORE_LOGIN);
    expect(size).toBeLessThan(MQTT_MAX_PACKET_BYTES);
    const span = 2 * BACKLOG_POINTS * BACKLOG_SPACING_MS;
    const t0 = Date.now() - ROUNDS * span - 60_000;
    const target = { host: '127.0.0.1', port: server.mqttPort as number };
    let acked = 0;
    for (let round = 0; round < ROUNDS; round++) acked += await publishBacklogAtLogin(target, device, t0 + round * span);
    expect(acked).toBe(2 * ROUNDS);
    expect(await telemetryCount(server.ctx.db, device.id)).toBe(2 * ROUNDS * BACKLOG_POINTS);
    expect(server.messaging.brokerRefusals().packet_too_large).toBe(0);
  });
});
