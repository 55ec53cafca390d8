/**
 * clean-data (spec §5 "Deleting device telemetry needs a password", §8 "password incorrect on clean-data"): the
 * vendor's own password deletes one device's telemetry, rollups, latest values and status history — and nothing of
 * any other device; a wrong password deletes nothing and is slowed down like a login, without locking the account.
 */
import {
  deviceControlPaths as p,
  ErrorCode,
  LOGIN_ACCOUNT_FREE_FAILURES,
  LOGIN_FREE_FAILURES,
  paths,
  topics,
  type TCleanDataResult,
  type TDeviceDetail,
} from '@tessera/contracts';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildAccount, buildUser, buildVendor, TEST_PASSWORD, type TBuiltAccount } from '../../../test/factories.js';
import { openTestDatabase, startTestServer, TEST_DB_KIND, testConfig, type TTestServer } from '../../../test/helpers.js';
import { startServer } from '../../app/server.js';
import { rowsOf } from '../../db/client.js';
import { devices } from '../../db/schema.js';
import { connectMqtt } from '../ingest/ingest-test-kit.js';

const T0 = 1_767_225_600_000;

describe(`clean-data (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let outsider: TBuiltAccount;
  let devs: TBuiltDevice[];

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    outsider = await buildVendor(server);
    devs = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 })).devices;
    await authorise(server.ctx.db, devs[0].id, user.accountId);
  });
  afterAll(() => server.stop());

  /** Streams 3 temperature points over two minutes, 1 vibration point and 2 status words as the real device. */
  const stream = async (device: TBuiltDevice) => {
    const client = await connectMqtt(server.mqttUrl, device.tangramId, device.secret);
    const points = [
      { key: 'temperature', ts: T0, vs: [20] },
      { key: 'temperature', ts: T0 + 1000, vs: [21] },
      { key: 'temperature', ts: T0 + 61_000, vs: [22] },
      { key: 'vibration', ts: T0, vs: [0.1, 0.2, 1] },
    ];
    await client.publishAsync(topics.telemetry(device.tangramId), JSON.stringify(points), { qos: 1 });
    for (const ts of [T0, T0 + 1000]) {
      await client.publishAsync(topics.status(device.tangramId), JSON.stringify({ ts, value: 5 }), { qos: 1 });
    }
    await client.endAsync();
  };
  /** Rows per table of `device`. */
  const rowsOfDevice = async (device: TBuiltDevice) => {
    const n = async (table: string) =>
      rowsOf<{ n: number }>(
        await server.ctx.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where device_id = ${device.id}`),
      )[0].n;
    return {
      telemetry: await n('telemetry'),
      rollups: await n('telemetry_rollup'),
      latest: await n('telemetry_latest'),
      status: await n('device_status'),
    };
  };
  const clean = (device: TBuiltDevice, body: unknown, token = vendor.token) =>
    server.api<TCleanDataResult>('POST', p.cleanData(device.tangramId), { token, body });

  it('refuses: 401 without a token, 403 for a user, 404 for another tenant or an unknown device, 400 for a bad body', async () => {
    const body = { password: TEST_PASSWORD };
    expect((await clean(devs[0], body, '')).status).toBe(401);
    expect((await clean(devs[0], body, user.token)).status).toBe(403);
    expect((await clean(devs[0], body, outsider.token)).status).toBe(404);
    expect((await clean({ tangramId: 'F'.repeat(30) } as TBuiltDevice, body)).status).toBe(404);
    expect((await clean(devs[0], {})).status).toBe(400);
    expect((await clean(devs[0], { password: '' })).status).toBe(400);
    expect((await clean(devs[0], { password: 'x'.repeat(129) })).status).toBe(400);
  });

  it('a wrong password: 400 "password incorrect", nothing deleted', async () => {
    await stream(devs[0]);
    const before = await rowsOfDevice(devs[0]);
    const res = await clean(devs[0], { password: 'Wrong#2026ok' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: ErrorCode.PasswordIncorrect, message: 'password incorrect' });
    expect(await rowsOfDevice(devs[0])).toEqual(before);
  });

  it('the right password deletes that device’s telemetry, rollups, latest values and status — no other device’s', async () => {
    await stream(devs[0]);
    await stream(devs[1]);
    const other = await rowsOfDevice(devs[1]);
    expect(other).toEqual({ telemetry: 4, rollups: 5, latest: 2, status: 2 }); // rollups: 1-min ×3 (2 temperature + vibration), 1-h ×2
    expect(await rowsOfDevice(devs[0])).toEqual(other);

    const res = await clean(devs[0], { password: TEST_PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual(other);
    expect(await rowsOfDevice(devs[0])).toEqual({ telemetry: 0, rollups: 0, latest: 0, status: 0 });
    expect(await rowsOfDevice(devs[1])).toEqual(other);

    const [cleaned] = await server.ctx.db.select().from(devices).where(eq(devices.id, devs[0].id));
    const [kept] = await server.ctx.db.select().from(devices).where(eq(devices.id, devs[1].id));
    expect([cleaned.statusValue, cleaned.statusTs]).toEqual([null, null]);
    expect(kept.statusValue).toBe(5);
    // The device itself stays.
    expect((await server.api<TDeviceDetail>('GET', paths.deviceV2(devs[0].tangramId), { token: vendor.token })).status).toBe(200);
    // Again: nothing left to delete.
    expect((await clean(devs[0], { password: TEST_PASSWORD })).body).toEqual({ telemetry: 0, rollups: 0, latest: 0, status: 0 });
  });

  it('wrong passwords are slowed down (429 with Retry-After) and never lock the account', async () => {
    const v = await buildAccount(server, { level: 'vendor', tenantId: vendor.tenantId });
    const wrong = { password: 'Wrong#2026ok' };
    // A right password in between forgets the failures, as a login does.
    for (let i = 0; i < LOGIN_FREE_FAILURES - 1; i += 1) expect((await clean(devs[1], wrong, v.token)).status).toBe(400);
    expect((await clean(devs[1], { password: TEST_PASSWORD }, v.token)).status).toBe(200);
    for (let i = 0; i < LOGIN_FREE_FAILURES; i += 1) expect((await clean(devs[1], wrong, v.token)).status).toBe(400);
    const slowed = await clean(devs[1], { password: TEST_PASSWORD }, v.token);
    expect(slowed.status).toBe(429);
    expect(slowed.body).toMatchObject({ code: ErrorCode.LoginThrottled });
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // More guesses: refused while the wait runs (429), checked and wrong once it has passed (400 — on a loaded machine
    // a second can go by between two of them); none is ever a lock.
    const statuses = new Set<number>();
    for (let i = 0; i < LOGIN_ACCOUNT_FREE_FAILURES; i += 1) statuses.add((await clean(devs[1], wrong, v.token)).status);
    expect([...statuses].filter((s) => s !== 400 && s !== 429)).toEqual([]);
    expect(statuses.has(429)).toBe(true);
    // A stolen session guessing here cannot lock the owner out of the login page.
    const login = await server.api('POST', paths.login, { body: { email: v.email, password: TEST_PASSWORD, role: 'vendor' } });
    expect(login.status).toBe(200);
  });

  it('never logs the password, even at trace level; logs who cleaned which device', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const database = await openTestDatabase();
    const traced = await startServer(testConfig(), { database, log: pino({ level: 'trace' }, sink) });
    try {
      const db = traced.ctx.db;
      const v = await buildAccount({ ctx: traced.ctx } as TTestServer, { level: 'vendor' });
      const [d] = (await buildDeviceProject(db, { tenantId: v.tenantId })).devices;
      for (const password of ['Secret#Wrong1', TEST_PASSWORD]) {
        await traced.app.inject({
          method: 'POST',
          url: p.cleanData(d.tangramId),
          headers: { authorization: `Bearer ${v.token}` },
          payload: { password },
        });
      }
    } finally {
      await traced.close();
      await database.close();
    }
    const log = lines.join('');
    expect(log).toContain('device data cleaned');
    expect(log).not.toContain('Secret#Wrong1');
    expect(log).not.toContain(TEST_PASSWORD);
  });
});
