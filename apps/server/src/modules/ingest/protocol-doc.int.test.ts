import {
  deviceAttributePaths,
  deviceControlPaths,
  paths,
  type TDeviceAttributeList,
  type TDeviceCredentials,
  type TDeviceInfoAnswer,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandArgs, protocolDocLines, runCommand as run } from '../../../test/documented-commands.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { telemetryCount, waitUntil } from './ingest-test-kit.js';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { buildVendor } from '../../../test/factories.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`docs/protocol.md mosquitto_pub example (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('works as documented against the embedded broker', async () => {
    // The numeric example (the value-type example's `<ts>` placeholders are not a command to run as it stands).
    const line = (await protocolDocLines()).find(
      (l) => l.startsWith('mosquitto_pub ') && l.includes('<TangramID>') && l.includes('"temperature"'),
    );
    expect(line).toBeDefined();
    const [dev] = (await buildDeviceProject(server.ctx.db)).devices;
    const args = commandArgs(line!, { mqttUrl: server.mqttUrl, values: { '<TangramID>': dev.tangramId, '<secret>': dev.secret } });
    await run('/usr/bin/mosquitto_pub', args, { timeout: 10_000 });
    // mosquitto_pub exits after its PUBACK, which comes after the commit: the point is stored now.
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(1);
  });

  it('the ThingsBoard examples work as documented with an access token', async () => {
    const lines = (await protocolDocLines()).filter(
      (l) => l.startsWith('mosquitto_pub ') && l.includes('<ACCESS_TOKEN>') && l.includes('/telemetry'),
    );
    expect(lines).toHaveLength(3);
    const vendor = await buildVendor(server);
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices;
    const issued = await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(dev.tangramId), { token: vendor.token });
    for (const line of lines) {
      const args = commandArgs(line, { mqttUrl: server.mqttUrl, values: { '<ACCESS_TOKEN>': issued.body.access_token as string } });
      await run('/usr/bin/mosquitto_pub', args, { timeout: 10_000 });
    }
    // Each mosquitto_pub exited after its PUBACK, which comes after the commit.
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(4);
    expect(await telemetryCount(server.ctx.db, dev.id, 'humidity')).toBe(1);
  });

  it('the ThingsBoard HTTP examples work as documented with curl', async () => {
    const lines = (await protocolDocLines()).filter(
      (l) => l.startsWith('curl ') && l.includes('<ACCESS_TOKEN>') && l.includes('/telemetry'),
    );
    expect(lines).toHaveLength(2);
    const vendor = await buildVendor(server);
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices;
    const issued = await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(dev.tangramId), { token: vendor.token });
    for (const line of lines) {
      const args = commandArgs(line, { httpUrl: server.httpUrl, values: { '<ACCESS_TOKEN>': issued.body.access_token as string } });
      const { stderr } = await run('curl', args, { timeout: 10_000 });
      expect(stderr).toContain('HTTP/1.1 200');
    }
    // Each 200 came after the commit.
    expect(await telemetryCount(server.ctx.db, dev.id, 'temperature')).toBe(2);
    expect(await telemetryCount(server.ctx.db, dev.id, 'humidity')).toBe(1);
  });

  it('the ThingsBoard attribute and RPC examples work as documented (mosquitto_pub, mosquitto_sub, curl)', async () => {
    const doc = await protocolDocLines();
    const documented = (tool: string, part: string) => {
      const line = doc.find((l) => l.startsWith(`${tool} `) && l.includes('<ACCESS_TOKEN>') && l.includes(part));
      expect(line, `${tool} … ${part}`).toBeDefined();
      return line as string;
    };
    const vendor = await buildVendor(server);
    const [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices;
    const token = (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(dev.tangramId), { token: vendor.token })).body
      .access_token as string;
    const mqttArgs = (line: string, extra: string[] = []) => [
      ...commandArgs(line, { mqttUrl: server.mqttUrl, values: { '<ACCESS_TOKEN>': token } }),
      ...extra,
    ];
    const httpArgs = (line: string, id = '') =>
      commandArgs(line, { httpUrl: server.httpUrl, values: { '<ACCESS_TOKEN>': token } }).map((w) => w.replace('/rpc/1', `/rpc/${id}`));
    const clientAttributes = async () =>
      (await server.api<TDeviceAttributeList>('GET', deviceAttributePaths.scope(dev.tangramId, 'client'), { token: vendor.token })).body
        .items;

    // Attributes over MQTT: the client attributes are stored when mosquitto_pub exits; mosquitto_sub gets a shared one.
    await run('/usr/bin/mosquitto_pub', mqttArgs(documented('mosquitto_pub', 'v1/devices/me/attributes')), { timeout: 10_000 });
    expect((await clientAttributes()).map((a) => a.key)).toEqual(['battery', 'firmware']);
    const attrSub = run(
      '/usr/bin/mosquitto_sub',
      mqttArgs(documented('mosquitto_sub', 'v1/devices/me/attributes'), ['-C', '1', '-W', '10']),
    );
    let printed = false;
    void attrSub.then(
      () => {
        printed = true;
      },
      () => undefined,
    );
    // Set until mosquitto_sub's subscription is in place and it printed the change.
    await waitUntil(async () => {
      if (!printed)
        await server.api('POST', deviceAttributePaths.scope(dev.tangramId, 'shared'), { token: vendor.token, body: { interval: 30 } });
      await sleep(100);
      return printed;
    }, 8_000);
    expect(JSON.parse((await attrSub).stdout)).toEqual({ interval: 30 });

    // RPC over MQTT: mosquitto_sub prints the request, the documented mosquitto_pub answers it.
    const rpcSub = run('/usr/bin/mosquitto_sub', mqttArgs(documented('mosquitto_sub', 'rpc/request'), ['-C', '1', '-W', '10']));
    await waitUntil(() => server.ctx.bus.isDeviceListening(dev.tangramId) === true, 5_000);
    const answered = server.api<TDeviceInfoAnswer>('POST', deviceControlPaths.getDeviceInfo(dev.tangramId), { token: vendor.token });
    const [topic] = (await rpcSub).stdout.trim().split(' ');
    const id = topic?.split('/').pop() as string;
    const pubArgs = mqttArgs(documented('mosquitto_pub', 'rpc/response'));
    pubArgs[pubArgs.indexOf('-t') + 1] = `v1/devices/me/rpc/response/${id}`;
    await run('/usr/bin/mosquitto_pub', pubArgs, { timeout: 10_000 });
    expect((await answered).body.result.firmware_version).toBe('1.4.2');

    // Attributes and RPC over HTTP with curl.
    for (const part of ['/attributes -H', '/attributes?']) {
      const { stderr, stdout } = await run('curl', httpArgs(documented('curl', part)), { timeout: 10_000 });
      expect(stderr).toContain('HTTP/1.1 200');
      if (part === '/attributes?') expect(JSON.parse(stdout)).toEqual({ client: { firmware: '1.4.2' }, shared: { interval: 30 } });
    }
    const polled = run('curl', httpArgs(documented('curl', '/rpc?timeout')), { timeout: 25_000 });
    await waitUntil(() => server.ctx.bus.isDeviceListening(dev.tangramId) === true, 5_000);
    const viaHttp = server.api<TDeviceInfoAnswer>('POST', deviceControlPaths.getDeviceInfo(dev.tangramId), { token: vendor.token });
    const request = JSON.parse((await polled).stdout) as { id: number; method: string };
    expect(request.method).toBe('getDeviceInfo');
    const { stderr } = await run('curl', httpArgs(documented('curl', '/rpc/1'), String(request.id)), { timeout: 10_000 });
    expect(stderr).toContain('HTTP/1.1 200');
    expect((await viaHttp).body.result.rssi_dbm).toBe(-58);

    // The attribute long poll: curl prints the shared change set while it waits.
    let updated = false;
    const update = run('curl', httpArgs(documented('curl', '/attributes/updates?timeout')), { timeout: 25_000 }).finally(() => {
      updated = true;
    });
    await waitUntil(async () => {
      if (!updated)
        await server.api('POST', deviceAttributePaths.scope(dev.tangramId, 'shared'), { token: vendor.token, body: { interval: 45 } });
      await sleep(100);
      return updated;
    }, 8_000);
    expect(JSON.parse((await update).stdout)).toEqual({ interval: 45 });
  });
});
