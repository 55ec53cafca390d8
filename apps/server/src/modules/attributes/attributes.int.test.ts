/**
 * Device attributes end to end (docs/protocol.md "ThingsBoard device API", docs/decisions/device-apis.md
 * "Attributes"): a device logged in with its access token publishes client attributes (PUBACK after the commit),
 * asks for attributes and is answered, and receives shared attributes a vendor sets in the console — with MQTT.js,
 * mosquitto_pub/mosquitto_sub, fetch and curl; the console API's 401/403/404 and tenant isolation; the refusals.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import {
  ATTRIBUTE_VALUE_MAX_BYTES,
  ATTRIBUTES_PER_MESSAGE_MAX,
  ATTRIBUTES_PER_SCOPE_MAX,
  deviceAttributePaths as ap,
  paths,
  type TDeviceAttributeList,
  type TDeviceCredentials,
} from '@tessera/contracts';
import { like, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { openScratchPostgres, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { auditLog } from '../../db/schema.js';
import { listenerApplicationName } from '../../core/database-listener.js';
import { rowsOf } from '../../db/client.js';
import { DEVICE_DOWNLINK_CHANNEL } from '../ingest/thingsboard-downlink.js';
import { writeAttributes } from './attribute-store.js';
import { waitUntil } from '../ingest/ingest-test-kit.js';

const run = promisify(execFile);

/** Collects the messages a client receives, by topic. */
function inbox(c: MqttClient): { topic: string; body: unknown }[] {
  const got: { topic: string; body: unknown }[] = [];
  c.on('message', (topic, payload) => got.push({ topic, body: JSON.parse(payload.toString()) }));
  return got;
}

describe(`device attributes (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let outsider: TBuiltAccount;
  let dev: TBuiltDevice;
  let other: TBuiltDevice;
  let token = '';
  let otherToken = '';
  const clients: MqttClient[] = [];

  const connect = async (username: string): Promise<MqttClient> => {
    const c = await mqtt.connectAsync(server.mqttUrl, { username, reconnectPeriod: 0, connectTimeout: 5_000 });
    clients.push(c);
    return c;
  };
  const list = async (d: TBuiltDevice, scope: 'client' | 'shared' | 'server', as = vendor.token) =>
    server.api<TDeviceAttributeList>('GET', ap.scope(d.tangramId, scope), { token: as });
  const values = async (d: TBuiltDevice, scope: 'client' | 'shared' | 'server') =>
    Object.fromEntries((await list(d, scope)).body.items.map((a) => [a.key, a.value]));

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    outsider = await buildVendor(server);
    [dev, other] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 })).devices;
    await authorise(server.ctx.db, dev.id, user.accountId);
    const issue = async (d: TBuiltDevice) =>
      (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(d.tangramId), { token: vendor.token })).body
        .access_token as string;
    token = await issue(dev);
    otherToken = await issue(other);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(() => server.stop());

  it('stores client attributes of every value type before the PUBACK, and answers a request on its response topic', async () => {
    const c = await connect(token);
    const got = inbox(c);
    await c.subscribeAsync('v1/devices/me/attributes/response/+', { qos: 1 });
    const sent = { firmware: '1.4.2', battery: 87.5, charging: true, config: { mode: 'eco', slots: [1, 2] } };
    await c.publishAsync('v1/devices/me/attributes', JSON.stringify(sent), { qos: 1 });
    // The PUBACK came after the commit: the console lists them now.
    expect(await values(dev, 'client')).toEqual(sent);
    await c.publishAsync('v1/devices/me/attributes', JSON.stringify({ battery: 80 }), { qos: 1 });
    expect((await values(dev, 'client')).battery).toBe(80);
    expect(await values(other, 'client')).toEqual({});

    await server.api('POST', ap.scope(dev.tangramId, 'shared'), { token: vendor.token, body: { interval: 30 } });
    await server.api('POST', ap.scope(dev.tangramId, 'server'), { token: vendor.token, body: { site: 'north' } });
    await c.publishAsync('v1/devices/me/attributes/request/7', JSON.stringify({ clientKeys: 'firmware,battery', sharedKeys: 'interval' }));
    await waitUntil(() => got.length >= 1, 5_000);
    expect(got[0]).toEqual({
      topic: 'v1/devices/me/attributes/response/7',
      body: { client: { battery: 80, firmware: '1.4.2' }, shared: { interval: 30 } },
    });
    // Server attributes are never sent to the device, even asked for by name.
    await c.publishAsync('v1/devices/me/attributes/request/8', JSON.stringify({ sharedKeys: 'site,interval' }));
    await waitUntil(() => got.length >= 2, 5_000);
    expect(got[1]?.body).toEqual({ shared: { interval: 30 } });
  });

  it('pushes a shared attribute change and a deletion to the subscribed device only', async () => {
    const c = await connect(token);
    const o = await connect(otherToken);
    const got = inbox(c);
    const otherGot = inbox(o);
    await c.subscribeAsync('v1/devices/me/attributes', { qos: 1 });
    await o.subscribeAsync('v1/devices/me/attributes', { qos: 1 });
    const res = await server.api<TDeviceAttributeList>('POST', ap.scope(dev.tangramId, 'shared'), {
      token: vendor.token,
      body: { targetTemperature: 21.5, label: 'hall' },
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((a) => a.key)).toContain('targetTemperature');
    await waitUntil(() => got.length >= 1, 5_000);
    expect(got[0]).toEqual({ topic: 'v1/devices/me/attributes', body: { label: 'hall', targetTemperature: 21.5 } });
    await server.api('POST', ap.scope(dev.tangramId, 'server'), { token: vendor.token, body: { secretNote: 'x' } });
    expect((await server.api('DELETE', ap.key(dev.tangramId, 'shared', 'label'), { token: vendor.token })).status).toBe(204);
    await waitUntil(() => got.length >= 2, 5_000);
    expect(got[1]?.body).toEqual({ deleted: ['label'] });
    // The server attribute was never sent, nor anything to the other device.
    await new Promise((r) => setTimeout(r, 200));
    expect(got).toHaveLength(2);
    expect(otherGot).toEqual([]);
  });

  it('takes mosquitto_pub and reaches mosquitto_sub as ThingsBoard documents them', async () => {
    const port = new URL(server.mqttUrl).port;
    await run(
      '/usr/bin/mosquitto_pub',
      ['-h', '127.0.0.1', '-p', port, '-q', '1', '-t', 'v1/devices/me/attributes', '-u', otherToken, '-m', '{"model":"TB-1"}'],
      {
        timeout: 10_000,
      },
    );
    expect(await values(other, 'client')).toEqual({ model: 'TB-1' });
    const sub = spawn('/usr/bin/mosquitto_sub', [
      '-h',
      '127.0.0.1',
      '-p',
      port,
      '-q',
      '1',
      '-t',
      'v1/devices/me/attributes',
      '-u',
      otherToken,
      '-C',
      '1',
      '-W',
      '10',
    ]);
    let out = '';
    sub.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    const exited = new Promise<number | null>((resolve) => sub.on('close', resolve));
    // Set until mosquitto_sub's subscription is in place and it printed the update.
    await waitUntil(async () => {
      await server.api('POST', ap.scope(other.tangramId, 'shared'), { token: vendor.token, body: { led: 'on' } });
      return out.length > 0;
    }, 8_000);
    expect(await exited).toBe(0);
    expect(JSON.parse(out.trim())).toEqual({ led: 'on' });
  });

  it('HTTP: stores client attributes (fetch and curl) and answers them with shared ones by key', async () => {
    const url = `${server.httpUrl}/api/v1/${token}/attributes`;
    const posted = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ip":"10.0.0.7"}' });
    expect(posted.status).toBe(200);
    expect((await values(dev, 'client')).ip).toBe('10.0.0.7');
    await run('curl', ['-sf', '-X', 'POST', '-d', '{"rssi":-61}', url], { timeout: 10_000 });
    expect((await values(dev, 'client')).rssi).toBe(-61);
    const got = await fetch(`${url}?clientKeys=ip,rssi,nothing&sharedKeys=interval`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ client: { ip: '10.0.0.7', rssi: -61 }, shared: { interval: 30 } });
    const { stdout } = await run('curl', ['-sf', `${url}?sharedKeys=targetTemperature`], { timeout: 10_000 });
    expect(JSON.parse(stdout)).toEqual({ shared: { targetTemperature: 21.5 } });
    // A device's call is not an account's change: nothing goes to the audit log, least of all its token.
    const audited = await server.ctx.db.select({ route: auditLog.route }).from(auditLog).where(like(auditLog.route, '%/api/v1/%'));
    expect(audited).toEqual([]);
  });

  it('refuses a wrong token, malformed, oversized and too many attributes, storing none', async () => {
    const url = (t: string) => `${server.httpUrl}/api/v1/${t}/attributes`;
    const post = (t: string, body: string) => fetch(url(t), { method: 'POST', body });
    expect((await post('wrong-token', '{"a":1}')).status).toBe(401);
    expect((await fetch(`${url('wrong-token')}?clientKeys=a`)).status).toBe(401);
    const before = await values(dev, 'client');
    const refused = [
      '{"a":',
      '[1,2]',
      '{"a":null}',
      '{}',
      JSON.stringify({ big: 'x'.repeat(ATTRIBUTE_VALUE_MAX_BYTES) }),
      JSON.stringify(Object.fromEntries(Array.from({ length: ATTRIBUTES_PER_MESSAGE_MAX + 1 }, (_, i) => [`k${i}`, i]))),
      JSON.stringify({ ['k'.repeat(129)]: 1 }),
    ];
    for (const body of refused) {
      const res = await post(token, body);
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
    }
    // Over MQTT the same messages are acknowledged and dropped: nothing stored, the connection stays.
    const c = await connect(token);
    for (const body of refused) await c.publishAsync('v1/devices/me/attributes', body, { qos: 1 });
    expect(c.connected).toBe(true);
    expect(await values(dev, 'client')).toEqual(before);
    // A topic of the API that is not served closes the connection.
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    c.publish('v1/devices/me/provision', '{}', { qos: 1 });
    await closed;
  });

  it('console: 401 without a login, 403 for a user writing, 404 for another tenant, a user authorised reads', async () => {
    expect((await server.api('GET', ap.scope(dev.tangramId, 'shared'))).status).toBe(401);
    expect((await server.api('POST', ap.scope(dev.tangramId, 'shared'), { body: { a: 1 } })).status).toBe(401);
    expect((await server.api('DELETE', ap.key(dev.tangramId, 'shared', 'interval'))).status).toBe(401);
    expect((await list(dev, 'shared', user.token)).status).toBe(200);
    expect((await list(dev, 'server', user.token)).body.items.map((a) => a.key)).toContain('site');
    // The user is not authorised to `other`: it is not there for them.
    expect((await list(other, 'client', user.token)).status).toBe(404);
    expect((await server.api('POST', ap.scope(dev.tangramId, 'shared'), { token: user.token, body: { a: 1 } })).status).toBe(403);
    expect((await server.api('DELETE', ap.key(dev.tangramId, 'shared', 'interval'), { token: user.token })).status).toBe(403);
    expect((await list(dev, 'shared', outsider.token)).status).toBe(404);
    expect((await server.api('POST', ap.scope(dev.tangramId, 'shared'), { token: outsider.token, body: { a: 1 } })).status).toBe(404);
    expect((await server.api('DELETE', ap.key(dev.tangramId, 'shared', 'interval'), { token: outsider.token })).status).toBe(404);
    // Client attributes are the device's: the console does not write them.
    expect((await server.api('POST', ap.scope(dev.tangramId, 'client'), { token: vendor.token, body: { a: 1 } })).status).toBe(400);
    expect((await server.api('DELETE', ap.key(dev.tangramId, 'shared', 'missing'), { token: vendor.token })).status).toBe(404);
    expect((await server.api('GET', `/frontstage/v1/devices/${dev.tangramId}/attributes/other`, { token: vendor.token })).status).toBe(400);
    expect((await values(dev, 'shared')).interval).toBe(30);
  });

  it(`holds at most ${ATTRIBUTES_PER_SCOPE_MAX} attributes a scope (409 beyond), rewriting existing keys still allowed`, async () => {
    const batch = (from: number) =>
      Object.fromEntries(Array.from({ length: ATTRIBUTES_PER_MESSAGE_MAX }, (_, i) => [`n${from + i}`, from + i]));
    for (let from = 0; from < ATTRIBUTES_PER_SCOPE_MAX; from += ATTRIBUTES_PER_MESSAGE_MAX) {
      expect((await server.api('POST', ap.scope(other.tangramId, 'server'), { token: vendor.token, body: batch(from) })).status).toBe(200);
    }
    const over = await server.api<{ code: string }>('POST', ap.scope(other.tangramId, 'server'), {
      token: vendor.token,
      body: { extra: 1 },
    });
    expect(over.status).toBe(409);
    expect((await server.api('POST', ap.scope(other.tangramId, 'server'), { token: vendor.token, body: { n0: 'again' } })).status).toBe(
      200,
    );
    expect((await list(other, 'server')).body.items).toHaveLength(ATTRIBUTES_PER_SCOPE_MAX);
  });

  it.skipIf(TEST_DB_KIND !== 'postgres')('reaches a device connected to another replica', async () => {
    const database = await openScratchPostgres(process.env.DATABASE_URL ?? '', 4, 'tessera_attrs');
    const a = await startTestServer({}, database);
    const b = await startTestServer({}, database);
    try {
      const v = await buildVendor(a);
      const [d] = (await buildDeviceProject(a.ctx.db, { tenantId: v.tenantId, count: 1 })).devices;
      const t = (await a.api<TDeviceCredentials>('POST', paths.deviceCredentials(d.tangramId), { token: v.token })).body
        .access_token as string;
      const c = await mqtt.connectAsync(b.mqttUrl, { username: t, reconnectPeriod: 0 });
      const got = inbox(c);
      await c.subscribeAsync('v1/devices/me/attributes', { qos: 1 });
      // Set again until replica b's listener is in place (a notification sent before it is lost, by design).
      await waitUntil(async () => {
        expect((await a.api('POST', ap.scope(d.tangramId, 'shared'), { token: v.token, body: { mode: 'night' } })).status).toBe(200);
        return got.length >= 1;
      }, 5_000);
      expect(got[0]?.body).toEqual({ mode: 'night' });
      await c.endAsync(true);
    } finally {
      await a.stop();
      await b.stop();
      await database.close();
    }
  });

  it.skipIf(TEST_DB_KIND !== 'postgres')(
    'pushes a shared attribute written while its listening connection was lost, once it listens again',
    async () => {
      const c = await connect(token);
      const got = inbox(c);
      await c.subscribeAsync('v1/devices/me/attributes', { qos: 1 });
      // Written with no notification at all, as when one is sent while this replica does not listen.
      expect(await writeAttributes(server.ctx.db, dev.id, 'shared', { firmware: '2.1.0' }, Date.now())).toMatchObject({ ok: true });
      await new Promise((r) => setTimeout(r, 300));
      expect(got).toEqual([]);
      const cut = rowsOf<{ ok: boolean }>(
        await server.ctx.db.execute(
          sql`select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = ${listenerApplicationName(DEVICE_DOWNLINK_CHANNEL)}`,
        ),
      );
      expect(cut.length).toBeGreaterThan(0);
      await waitUntil(() => got.length >= 1, 10_000);
      expect(got[0]).toEqual({ topic: 'v1/devices/me/attributes', body: expect.objectContaining({ firmware: '2.1.0' }) });
    },
    20_000,
  );
});
