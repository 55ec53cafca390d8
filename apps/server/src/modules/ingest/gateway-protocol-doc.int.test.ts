/**
 * docs/protocol.md "ThingsBoard gateway API (MQTT)": every documented `mosquitto_pub` / `mosquitto_sub` line with
 * `<GATEWAY_TOKEN>` runs as written (host and port aside) against the embedded broker, and does what the section says.
 */
import {
  deviceAttributePaths,
  deviceControlPaths,
  paths,
  type TDeviceAttributeList,
  type TDeviceCredentials,
  type TDeviceDetail,
  type TDeviceInfoAnswer,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';
import { commandArgs, protocolDocLines, runCommand as run } from '../../../test/documented-commands.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { devices } from '../../db/schema.js';
import { telemetryCount, waitUntil } from './ingest-test-kit.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`docs/protocol.md ThingsBoard gateway examples (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('work as documented with mosquitto_pub and mosquitto_sub', async () => {
    const doc = (await protocolDocLines()).filter((l) => l.includes('<GATEWAY_TOKEN>') && l.startsWith('mosquitto_'));
    expect(doc).toHaveLength(9);
    const vendor = await buildVendor(server);
    const [gateway, a, b] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 })).devices;
    await server.ctx.db.update(devices).set({ name: 'Device A' }).where(eq(devices.id, a.id));
    await server.ctx.db.update(devices).set({ name: 'Device B' }).where(eq(devices.id, b.id));
    const token = (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(gateway.tangramId), { token: vendor.token })).body
      .access_token as string;
    await server.api('PUT', paths.deviceGateway(gateway.tangramId), { token: vendor.token, body: { is_gateway: true } });
    const line = (tool: string, topic: string) => {
      const found = doc.find((l) => l.startsWith(`${tool} `) && l.includes(` -t ${topic} `));
      expect(found, `${tool} ${topic}`).toBeDefined();
      return commandArgs(found as string, { mqttUrl: server.mqttUrl, values: { '<GATEWAY_TOKEN>': token } });
    };
    const pub = (topic: string) => run('/usr/bin/mosquitto_pub', line('mosquitto_pub', topic), { timeout: 10_000 });
    const sub = (topic: string) => run('/usr/bin/mosquitto_sub', [...line('mosquitto_sub', topic), '-C', '1', '-W', '20']);
    const online = async (id: string) => (await server.api<TDeviceDetail>('GET', paths.deviceV2(id), { token: vendor.token })).body.online;

    // The RPC listener is the gateway's lasting connection: the devices mosquitto_pub connects stay connected.
    const rpcSub = sub('v1/gateway/rpc');
    // Connect until Device A stays online after mosquitto_pub exited (mosquitto_sub has subscribed by then).
    await waitUntil(async () => {
      await pub('v1/gateway/connect');
      await sleep(200);
      return online(a.tangramId);
    }, 8_000);
    await pub('v1/gateway/telemetry');
    // mosquitto_pub exits after its PUBACK, which comes after the commit.
    expect(await telemetryCount(server.ctx.db, a.id, 'temperature')).toBe(1);
    expect(await telemetryCount(server.ctx.db, a.id, 'humidity')).toBe(1);
    expect(await telemetryCount(server.ctx.db, b.id, 'temperature')).toBe(1);
    await pub('v1/gateway/attributes');
    const client = await server.api<TDeviceAttributeList>('GET', deviceAttributePaths.scope(a.tangramId, 'client'), {
      token: vendor.token,
    });
    expect(client.body.items.map((i) => i.key)).toEqual(['battery', 'firmware']);

    // The attribute answer reaches the gateway's mosquitto_sub of the response topic.
    const answer = sub('v1/gateway/attributes/response');
    let answered = false;
    void answer.then(
      () => {
        answered = true;
      },
      () => undefined,
    );
    await waitUntil(async () => {
      if (!answered) await pub('v1/gateway/attributes/request');
      await sleep(100);
      return answered;
    }, 8_000);
    expect(JSON.parse((await answer).stdout)).toEqual({ id: 1, device: 'Device A', value: '1.4.2' });

    // A shared attribute set on Device A reaches the mosquitto_sub of v1/gateway/attributes.
    const shared = sub('v1/gateway/attributes');
    let pushed = false;
    void shared.then(
      () => {
        pushed = true;
      },
      () => undefined,
    );
    await waitUntil(async () => {
      if (!pushed)
        await server.api('POST', deviceAttributePaths.scope(a.tangramId, 'shared'), { token: vendor.token, body: { interval: 30 } });
      await sleep(100);
      return pushed;
    }, 8_000);
    expect(JSON.parse((await shared).stdout)).toEqual({ device: 'Device A', data: { interval: 30 } });

    // Device A's remote control: the mosquitto_sub prints the request, the documented mosquitto_pub answers it.
    const info = server.api<TDeviceInfoAnswer>('POST', deviceControlPaths.getDeviceInfo(a.tangramId), { token: vendor.token });
    const request = JSON.parse((await rpcSub).stdout) as { device: string; data: { id: number; method: string } };
    expect(request).toMatchObject({ device: 'Device A', data: { method: 'getDeviceInfo' } });
    const answerArgs = line('mosquitto_pub', 'v1/gateway/rpc');
    answerArgs[answerArgs.indexOf('-m') + 1] = (answerArgs[answerArgs.indexOf('-m') + 1] as string).replace(
      '"id":1',
      `"id":${request.data.id}`,
    );
    // Answer while a connection of the gateway still holds Device A (the listener exited with its one message).
    const holder = sub('v1/gateway/attributes/response');
    await sleep(500);
    await run('/usr/bin/mosquitto_pub', answerArgs, { timeout: 10_000 });
    expect((await info).body.result.firmware_version).toBe('1.4.2');
    expect(await online(a.tangramId)).toBe(true);
    await pub('v1/gateway/disconnect');
    expect(await online(a.tangramId)).toBe(false);
    holder.child.kill();
    await holder.catch(() => undefined);
  });
});
