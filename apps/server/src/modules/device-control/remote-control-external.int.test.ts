/**
 * Remote control with an external broker (MQTT_URL, the system Mosquitto): the server subscribes to the reply topic
 * on its control connection and publishes the command there; the simulator connected to Mosquitto answers. The
 * server cannot tell whether a device is connected, so a silent or absent device is a timeout, never "offline".
 */
import { deviceControlPaths as p, ErrorCode, type TDeviceInfoAnswer, type TSensorCommandAnswer } from '@tessera/contracts';
import { SIM_FIRMWARE_VERSION, startSimulator } from '@tessera/device-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { EXTERNAL_MQTT_URL, externalBrokerReachable } from '../../../test/external-broker.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';

const TIMEOUT_MS = 1500;

describe.skipIf(!(await externalBrokerReachable()))(`remote control through an external broker (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let devs: TBuiltDevice[];
  beforeAll(async () => {
    server = await startTestServer({ mqttUrl: EXTERNAL_MQTT_URL, commandTimeoutMs: TIMEOUT_MS });
    vendor = await buildVendor(server);
    devs = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 })).devices;
  });
  afterAll(() => server.stop());

  it('the simulator on the external broker answers getDeviceInfo and sensorCommand', async () => {
    const sim = await startSimulator({ url: EXTERNAL_MQTT_URL, devices: [{ ...devs[0], keys: ['temperature'] }], rateHz: 1 });
    try {
      const info = await server.api<TDeviceInfoAnswer>('POST', p.getDeviceInfo(devs[0].tangramId), { token: vendor.token });
      expect(info.status, JSON.stringify(info.body)).toBe(200);
      expect(info.body.result.firmware_version).toBe(SIM_FIRMWARE_VERSION);
      const read = await server.api<TSensorCommandAnswer>('POST', p.sensorCommand(devs[0].tangramId), {
        token: vendor.token,
        body: { key: 'temperature' },
      });
      expect(read.status).toBe(200);
      expect(read.body.result).toMatchObject({ key: 'temperature' });
    } finally {
      await sim.stop();
    }
  });

  it('a device that is not there: 504 DEVICE_TIMEOUT (the external broker does not say who is connected)', async () => {
    expect(server.ctx.bus.isDeviceListening(devs[1].tangramId)).toBeNull();
    const res = await server.api('POST', p.getDeviceInfo(devs[1].tangramId), { token: vendor.token });
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({ code: ErrorCode.DeviceTimeout });
  });
});
