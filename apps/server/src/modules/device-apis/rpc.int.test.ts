/**
 * Remote control of a device connected by access token, as ThingsBoard's server-side RPC (docs/protocol.md
 * "ThingsBoard device API", docs/decisions/device-apis.md "RPC"): the console's getDeviceInfo and sensorCommand reach
 * the device on `v1/devices/me/rpc/request/{n}` (MQTT.js, mosquitto_sub) or as the answer of a long poll (fetch,
 * curl); its answer on `…/rpc/response/{n}` or `POST /api/v1/{token}/rpc/{n}` is the command's answer and is logged
 * as a native one is; RPC from the device is answered unsupported; refusals.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import {
  deviceAttributePaths,
  deviceControlPaths as p,
  paths,
  RPC_RESPONSE_MAX_BYTES,
  type TDeviceAttributeList,
  type TDeviceCommandLog,
  type TDeviceCredentials,
  type TDeviceInfoAnswer,
  type TDeviceInfoReply,
  type TPage,
  type TSensorCommandAnswer,
} from '@tessera/contracts';
import { SIM_FIRMWARE_VERSION, startSimulator } from '@tessera/device-sim';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { openScratchPostgres, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { waitUntil } from '../ingest/ingest-test-kit.js';
import { DEVICE_DOWNLINK_CHANNEL } from '../ingest/thingsboard-downlink.js';
import type { Database } from '../../db/client.js';

const run = promisify(execFile);

/** The kinds of the notes replicas exchange on the downlink channel of `database`, as they come (PostgreSQL only). */
async function watchNotes(database: Database): Promise<{ kinds: string[]; stop(): Promise<void> }> {
  const client = await (database.connectUnbounded as () => Promise<import('pg').Client>)();
  const kinds: string[] = [];
  client.on('notification', (msg) => kinds.push((JSON.parse(msg.payload ?? '{}') as { k: string }).k));
  await client.query(`LISTEN ${DEVICE_DOWNLINK_CHANNEL}`);
  return { kinds, stop: () => client.end() };
}
/** Long enough for a loaded machine to spawn curl within a command's wait; the timeout test waits it once. */
const TIMEOUT_MS = 3000;
const INFO: TDeviceInfoReply = { firmwareVersion: 'tb-2.1', uptimeMs: 61_000, rssiDbm: -58, sensors: [] };

/** A token device that answers every RPC request with `answer(method, params)` (a string as is, else JSON). */
async function rpcDevice(
  url: string,
  token: string,
  answer: (method: string, params: unknown) => unknown,
): Promise<{ client: MqttClient; got: { topic: string; body: unknown }[] }> {
  const client = await mqtt.connectAsync(url, { username: token, reconnectPeriod: 0, connectTimeout: 5_000 });
  const got: { topic: string; body: unknown }[] = [];
  client.on('message', (topic, payload) => {
    const body = JSON.parse(payload.toString()) as { method: string; params: unknown };
    got.push({ topic, body });
    const id = topic.split('/').pop();
    const reply = answer(body.method, body.params);
    if (reply !== null)
      client.publish(`v1/devices/me/rpc/response/${id}`, typeof reply === 'string' ? reply : JSON.stringify(reply), { qos: 1 });
  });
  await client.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 });
  return { client, got };
}

describe(`ThingsBoard RPC (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let devs: TBuiltDevice[];
  const tokens: string[] = [];
  const clients: MqttClient[] = [];

  const info = (d: TBuiltDevice) => server.api<TDeviceInfoAnswer>('POST', p.getDeviceInfo(d.tangramId), { token: vendor.token });
  const lastLog = async (d: TBuiltDevice) =>
    (await server.api<TPage<TDeviceCommandLog>>('GET', p.commands(d.tangramId), { token: vendor.token })).body.data[0];

  beforeAll(async () => {
    server = await startTestServer({ commandTimeoutMs: TIMEOUT_MS });
    vendor = await buildVendor(server);
    devs = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 4 })).devices;
    for (const d of devs) {
      tokens.push(
        (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(d.tangramId), { token: vendor.token })).body
          .access_token as string,
      );
    }
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(() => server.stop());

  it('sends getDeviceInfo as RPC over MQTT and answers and logs what the device answered', async () => {
    const d = await rpcDevice(server.mqttUrl, tokens[0] as string, (method) =>
      method === 'getDeviceInfo' ? INFO : { error: 'no such method' },
    );
    clients.push(d.client);
    const res = await info(devs[0] as TBuiltDevice);
    expect(res.status).toBe(200);
    expect(res.body.result.firmware_version).toBe('tb-2.1');
    expect(d.got).toHaveLength(1);
    expect(d.got[0]?.topic).toMatch(/^v1\/devices\/me\/rpc\/request\/\d+$/);
    expect(d.got[0]?.body).toEqual({ method: 'getDeviceInfo', params: {} });
    const log = await lastLog(devs[0] as TBuiltDevice);
    expect(log).toMatchObject({ req_id: res.body.req_id, name: 'getDeviceInfo', outcome: 'ok' });
  });

  it('a device error, an oversized answer and an answer from another device are the command outcomes a native one has', async () => {
    const dev = devs[1] as TBuiltDevice;
    const erring = await rpcDevice(server.mqttUrl, tokens[1] as string, () => ({ error: 'relay stuck' }));
    clients.push(erring.client);
    const res = await info(dev);
    expect(res.status).toBe(502);
    expect(await lastLog(dev)).toMatchObject({ outcome: 'device_error', error: 'relay stuck' });
    await erring.client.endAsync(true);

    const big = await rpcDevice(server.mqttUrl, tokens[1] as string, () => ({ pad: 'x'.repeat(RPC_RESPONSE_MAX_BYTES) }));
    clients.push(big.client);
    expect((await info(dev)).status).toBe(502);
    expect((await lastLog(dev))?.error).toContain(`larger than ${RPC_RESPONSE_MAX_BYTES}`);
    await big.client.endAsync(true);

    // Device 2 answers every id it can think of: the ids are per device, so device 1's command still times out.
    const silent = await rpcDevice(server.mqttUrl, tokens[1] as string, () => null);
    clients.push(silent.client);
    const intruder = await mqtt.connectAsync(server.mqttUrl, { username: tokens[2], reconnectPeriod: 0 });
    clients.push(intruder);
    const pending = info(dev);
    await new Promise((r) => setTimeout(r, 300));
    const n = Number(silent.got[0]?.topic.split('/').pop());
    for (const id of [n - 1, n, n + 1]) await intruder.publishAsync(`v1/devices/me/rpc/response/${id}`, JSON.stringify(INFO), { qos: 1 });
    expect((await pending).status).toBe(504);
    expect(await lastLog(dev)).toMatchObject({ outcome: 'timeout' });
  });

  it('409 offline for a token device that does not subscribe to RPC', async () => {
    const c = await mqtt.connectAsync(server.mqttUrl, { username: tokens[3], reconnectPeriod: 0 });
    clients.push(c);
    expect((await info(devs[3] as TBuiltDevice)).status).toBe(409);
  });

  it('a token device connected nowhere is offline without asking: no other replica listens', async () => {
    const dev = devs[0] as TBuiltDevice;
    const notes = TEST_DB_KIND === 'postgres' ? await watchNotes(server.database) : null;
    try {
      expect(await server.ctx.bus.isDeviceListeningElsewhere(dev.tangramId)).toBe(false);
      expect((await info(dev)).status).toBe(409);
      await new Promise((r) => setTimeout(r, 200));
      expect(notes?.kinds.filter((k) => k === 'where') ?? []).toEqual([]);
    } finally {
      await notes?.stop();
    }
  });

  it('reaches mosquitto_sub and takes the answer from mosquitto_pub', async () => {
    const port = new URL(server.mqttUrl).port;
    const token = tokens[3] as string;
    const sub = spawn('/usr/bin/mosquitto_sub', [
      '-h',
      '127.0.0.1',
      '-p',
      port,
      '-q',
      '1',
      '-v',
      '-t',
      'v1/devices/me/rpc/request/+',
      '-u',
      token,
      '-C',
      '1',
      '-W',
      '10',
    ]);
    let out = '';
    sub.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    const answered = new Promise<void>((resolve, reject) =>
      sub.on('close', () => {
        const [topic] = out.trim().split(' ');
        const id = topic?.split('/').pop() ?? '';
        run(
          '/usr/bin/mosquitto_pub',
          ['-h', '127.0.0.1', '-p', port, '-q', '1', '-t', `v1/devices/me/rpc/response/${id}`, '-u', token, '-m', JSON.stringify(INFO)],
          {
            timeout: 10_000,
          },
        ).then(() => resolve(), reject);
      }),
    );
    // Ask until mosquitto_sub's subscription is in place (before it, the device is offline: 409).
    let res = await info(devs[3] as TBuiltDevice);
    for (let i = 0; res.status === 409 && i < 50; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      res = await info(devs[3] as TBuiltDevice);
    }
    await answered;
    expect(res.status).toBe(200);
    expect(out).toContain('"method":"getDeviceInfo"');
    expect(res.body.result.rssi_dbm).toBe(-58);
  });

  it('HTTP: a long poll (fetch) gets the request and curl posts the answer; 408, 404, 401 and 400', async () => {
    const token = tokens[2] as string;
    const base = `${server.httpUrl}/api/v1/${token}`;
    const polled = fetch(`${base}/rpc?timeout=5000`).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { id: number; method: string; params: unknown },
    }));
    // The poll is open once the device counts as listening.
    await waitUntil(() => server.ctx.bus.isDeviceListening((devs[2] as TBuiltDevice).tangramId) === true, 5_000);
    const res = info(devs[2] as TBuiltDevice);
    const poll = await polled;
    expect(poll.status).toBe(200);
    expect(poll.body).toMatchObject({ method: 'getDeviceInfo', params: {} });
    expect(Number.isInteger(poll.body.id)).toBe(true);
    await run(
      'curl',
      ['-sf', '-X', 'POST', '-H', 'content-type: application/json', '-d', JSON.stringify(INFO), `${base}/rpc/${poll.body.id}`],
      { timeout: 10_000 },
    );
    const answer = await res;
    expect(answer.status).toBe(200);
    expect(answer.body.result.uptime_s).toBe(61);

    const t0 = Date.now();
    const timedOut = await fetch(`${base}/rpc?timeout=300`);
    expect(timedOut.status).toBe(408);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect((await fetch(`${base}/rpc/999999`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${server.httpUrl}/api/v1/wrong-token/rpc?timeout=300`)).status).toBe(401);
    expect((await fetch(`${server.httpUrl}/api/v1/wrong-token/rpc/1`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await fetch(`${base}/rpc?timeout=600001`)).status).toBe(400);
    expect((await fetch(`${base}/rpc?timeout=soon`)).status).toBe(400);
  });

  it('answers an RPC from the device {"error":"unsupported"} on MQTT and HTTP', async () => {
    const c = await mqtt.connectAsync(server.mqttUrl, { username: tokens[0], reconnectPeriod: 0 });
    clients.push(c);
    const got = new Promise<{ topic: string; body: string }>((resolve) =>
      c.once('message', (topic, payload) => resolve({ topic, body: payload.toString() })),
    );
    await c.subscribeAsync('v1/devices/me/rpc/response/+', { qos: 1 });
    await c.publishAsync('v1/devices/me/rpc/request/5', JSON.stringify({ method: 'getCurrentTime', params: {} }), { qos: 1 });
    expect(await got).toEqual({ topic: 'v1/devices/me/rpc/response/5', body: '{"error":"unsupported"}' });
    const res = await fetch(`${server.httpUrl}/api/v1/${tokens[0]}/rpc`, {
      method: 'POST',
      body: JSON.stringify({ method: 'getCurrentTime', params: {} }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ error: 'unsupported' });
  });

  it('the simulator speaking ThingsBoard reports its client attributes and answers getDeviceInfo and a read as RPC', async () => {
    const d = devs[3] as TBuiltDevice;
    const sim = await startSimulator({
      url: server.mqttUrl,
      devices: [{ tangramId: d.tangramId, secret: tokens[3] as string, keys: ['temperature'], protocol: 'thingsboard' }],
      rateHz: 1,
    });
    try {
      await waitUntil(async () => {
        const list = await server.api<TDeviceAttributeList>('GET', deviceAttributePaths.scope(d.tangramId, 'client'), {
          token: vendor.token,
        });
        return list.body.items.some((a) => a.key === 'firmware' && a.value === SIM_FIRMWARE_VERSION);
      }, 5_000);
      await waitUntil(() => server.ctx.bus.isDeviceListening(d.tangramId) === true, 5_000);
      const res = await info(d);
      expect(res.status).toBe(200);
      expect(res.body.result.firmware_version).toBe(SIM_FIRMWARE_VERSION);
      const read = await server.api<TSensorCommandAnswer>('POST', p.sensorCommand(d.tangramId), {
        token: vendor.token,
        body: { key: 'temperature', action: 'read' },
      });
      expect(read.status).toBe(200);
      expect(read.body.result).toMatchObject({ key: 'temperature' });
    } finally {
      await sim.stop();
    }
  });

  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'reaches a device connected to another replica and takes its answer back, on MQTT and HTTP',
    async () => {
      const database = await openScratchPostgres(process.env.DATABASE_URL ?? '', 4, 'tessera_rpc');
      const a = await startTestServer({ commandTimeoutMs: 3_000 }, database);
      const b = await startTestServer({ commandTimeoutMs: 3_000 }, database);
      try {
        const v = await buildVendor(a);
        const [d] = (await buildDeviceProject(a.ctx.db, { tenantId: v.tenantId, count: 1 })).devices;
        const dev = d as TBuiltDevice;
        const t = (await a.api<TDeviceCredentials>('POST', paths.deviceCredentials(dev.tangramId), { token: v.token })).body
          .access_token as string;
        const device = await rpcDevice(b.mqttUrl, t, () => INFO);
        // Ask until both replicas listen to each other (a note sent before is lost, by design).
        let res = await a.api<TDeviceInfoAnswer>('POST', p.getDeviceInfo(dev.tangramId), { token: v.token });
        for (let i = 0; res.status !== 200 && i < 20; i += 1)
          res = await a.api<TDeviceInfoAnswer>('POST', p.getDeviceInfo(dev.tangramId), { token: v.token });
        expect(res.status).toBe(200);
        expect(res.body.result.firmware_version).toBe('tb-2.1');
        await device.client.endAsync(true);

        // HTTP behind a load balancer: the poll is held by replica b, the answer is posted to replica a.
        const polled = fetch(`${b.httpUrl}/api/v1/${t}/rpc?timeout=5000`).then((r) => r.json() as Promise<{ id: number }>);
        await waitUntil(() => b.ctx.bus.isDeviceListening(dev.tangramId) === true, 5_000);
        const viaHttp = a.api<TDeviceInfoAnswer>('POST', p.getDeviceInfo(dev.tangramId), { token: v.token });
        const { id } = await polled;
        expect((await fetch(`${a.httpUrl}/api/v1/${t}/rpc/${id}`, { method: 'POST', body: JSON.stringify(INFO) })).status).toBe(200);
        expect((await viaHttp).status).toBe(200);

        // Connected nowhere: replica a asks, replica b says it does not hold the device, and a answers 409.
        const notes = await watchNotes(database);
        try {
          expect((await a.api('POST', p.getDeviceInfo(dev.tangramId), { token: v.token })).status).toBe(409);
          await waitUntil(() => notes.kinds.includes('nothere'), 5_000);
          expect(notes.kinds.filter((k) => k === 'where' || k === 'here' || k === 'nothere')).toEqual(['where', 'nothere']);
        } finally {
          await notes.stop();
        }
      } finally {
        await a.stop();
        await b.stop();
        await database.close();
      }
    },
  );
});
