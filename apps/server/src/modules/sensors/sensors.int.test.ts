import {
  sensorPaths,
  TELEMETRY_VALUE_SLOTS,
  type TSensor,
  type TSensorBus,
  type TSensorDisplay,
  type TSensorList,
  type TSensorSaveResult,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import type { TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { projectSensors } from '../../db/schema.js';
import { startTwoTenants } from '../../../test/tenants.js';

describe(`sensors (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount, user: TBuiltAccount, other: TBuiltAccount;
  beforeAll(async () => {
    ({ server, vendor, user, other } = await startTwoTenants());
  });
  afterAll(() => server.stop());

  const project = async (tenantId = vendor.tenantId) => (await buildDeviceProject(server.ctx.db, { tenantId, count: 0 })).projectId;
  const sensorsOf = async (projectId: number) => server.ctx.db.select().from(projectSensors).where(eq(projectSensors.projectId, projectId));
  const firstSensor = async (projectId: number) => (await sensorsOf(projectId)).sort((a, b) => a.id - b.id)[0];

  describe('every route: 401 without a token, 403 for a user, 2xx for a vendor', () => {
    type TIds = { projectId: number; sensorId: number };
    const routes: [string, (i: TIds) => string, ((i: TIds) => unknown)?][] = [
      ['GET', (i) => sensorPaths.list(i.projectId)],
      ['POST', (i) => sensorPaths.list(i.projectId), () => ({ key: 'k1', name: 'K1' })],
      ['POST', (i) => sensorPaths.listV2(i.projectId), () => ({ sensors: [{ key: 'k2', name: 'K2' }] })],
      ['PUT', (i) => sensorPaths.listV2(i.projectId), (i) => ({ sensors: [{ id: i.sensorId, upload_period: 5000 }] })],
      ['GET', (i) => sensorPaths.one(i.sensorId)],
      ['PUT', (i) => sensorPaths.one(i.sensorId), () => ({ address: 7 })],
      ['GET', (i) => sensorPaths.bus(i.projectId)],
      ['PUT', (i) => sensorPaths.bus(i.projectId), () => ({ iface: 'SPI', port: 2 })],
      ['POST', () => sensorPaths.displays, (i) => ({ sensor_id: i.sensorId, decimals: 1 })],
      ['POST', () => sensorPaths.sync, (i) => ({ project_id: i.projectId })],
      ['DELETE', (i) => sensorPaths.one(i.sensorId)],
    ];
    for (const [method, url, body] of routes) {
      it(`${method} ${url({ projectId: 1, sensorId: 1 })}`, async () => {
        const projectId = await project();
        const ids = { projectId, sensorId: (await firstSensor(projectId)).id };
        const opts = { body: body?.(ids) };
        const m = method as 'GET';
        expect((await server.api(m, url(ids), opts)).status).toBe(401);
        expect((await server.api(m, url(ids), { ...opts, token: user.token })).status).toBe(403);
        const ok = await server.api(m, url(ids), { ...opts, token: vendor.token });
        expect(ok.status, JSON.stringify(ok.body)).toBeLessThan(300);
      });
    }

    it('sensorDisplay get, put and delete', async () => {
      const projectId = await project();
      const sensorId = (await firstSensor(projectId)).id;
      const url = sensorPaths.display(sensorId);
      await server.api('POST', sensorPaths.displays, { token: vendor.token, body: { sensor_id: sensorId } });
      for (const [m, body] of [['GET'], ['PUT', { decimals: 3 }], ['DELETE']] as const) {
        expect((await server.api(m, url, { body })).status).toBe(401);
        expect((await server.api(m, url, { body, token: user.token })).status).toBe(403);
        expect((await server.api(m, url, { body, token: vendor.token })).status).toBeLessThan(300);
      }
    });
  });

  it('creates, reads, updates and deletes a sensor; periods are stored in ms', async () => {
    const projectId = await project();
    const created = await server.api<TSensorSaveResult>('POST', sensorPaths.list(projectId), {
      token: vendor.token,
      body: { key: 'pressure', name: 'Pressure', unit: 'bar', address: 255, upload_period: 0, save_period: 1000 },
    });
    expect(created.status).toBe(201);
    const s = created.body.data[0];
    expect(s).toMatchObject({
      key: 'pressure',
      address: 255,
      upload_period: 0,
      save_period: 1000,
      update_period: 1000,
      batch: 1000,
      enabled: true,
    });
    const put = await server.api<TSensorSaveResult>('PUT', sensorPaths.one(s.id), { token: vendor.token, body: { upload_period: 60_000 } });
    expect(put.body.data[0]).toMatchObject({ upload_period: 60_000, address: 255, name: 'Pressure' });
    expect((await server.api<TSensor>('GET', sensorPaths.one(s.id), { token: vendor.token })).body.upload_period).toBe(60_000);
    const list = await server.api<TSensorList>('GET', `${sensorPaths.list(projectId)}?q=press`, { token: vendor.token });
    expect(list.body.data.map((x) => x.key)).toEqual(['pressure']);
    expect(list.body.telemetry_limit).toBe(TELEMETRY_VALUE_SLOTS);
    expect((await server.api('DELETE', sensorPaths.one(s.id), { token: vendor.token })).status).toBe(204);
    expect((await server.api('GET', sensorPaths.one(s.id), { token: vendor.token })).status).toBe(404);
  });

  describe('§5 bounds on the endpoint: the bound passes, one past is 400 and nothing is written', () => {
    const cases: [string, number, number][] = [
      ['address', 255, 256],
      ['address', 0, -1],
      ['upload_period', 1000, 999],
      ['save_period', 0, -1],
      ['update_period', 1000, 999],
    ];
    for (const [field, good, bad] of cases) {
      it(`${field}: ${good} ok, ${bad} refused`, async () => {
        const projectId = await project();
        const before = (await sensorsOf(projectId)).length;
        const no = await server.api<{ code: string }>('POST', sensorPaths.list(projectId), {
          token: vendor.token,
          body: { key: 'b1', name: 'B', [field]: bad },
        });
        expect(no.status).toBe(400);
        expect(no.body.code).toBe('VALIDATION_FAILED');
        expect(await sensorsOf(projectId)).toHaveLength(before);
        const sensorId = (await firstSensor(projectId)).id;
        expect((await server.api('PUT', sensorPaths.one(sensorId), { token: vendor.token, body: { [field]: bad } })).status).toBe(400);
        const yes = await server.api('POST', sensorPaths.list(projectId), {
          token: vendor.token,
          body: { key: 'b1', name: 'B', [field]: good },
        });
        expect(yes.status).toBe(201);
      });
    }

    it('wrong types and a bulk with one bad row write nothing', async () => {
      const projectId = await project();
      const before = await sensorsOf(projectId);
      const bad = await server.api('POST', sensorPaths.listV2(projectId), {
        token: vendor.token,
        body: {
          sensors: [
            { key: 'ok1', name: 'Ok' },
            { key: 'ok2', name: 'Ok', address: 'x' },
          ],
        },
      });
      expect(bad.status).toBe(400);
      const dup = await server.api('POST', sensorPaths.listV2(projectId), {
        token: vendor.token,
        body: {
          sensors: [
            { key: 'ok1', name: 'Ok' },
            { key: before[0].key, name: 'dup' },
          ],
        },
      });
      expect(dup.status).toBe(409);
      expect(await sensorsOf(projectId)).toHaveLength(before.length);
    });
  });

  it('telemetry limit: enabling past it saves but disables the excess and says so', async () => {
    // Factory sensors take 6 slots (temperature, humidity, vibration ×3, current); fill to exactly 32.
    const projectId = await project();
    const triples = Array.from({ length: 8 }, (_, i) => ({ key: `t${i}`, name: `T${i}`, value_count: 3 }));
    const fill = await server.api<TSensorSaveResult>('POST', sensorPaths.listV2(projectId), {
      token: vendor.token,
      body: { sensors: [...triples, { key: 'one', name: 'One' }, { key: 'two', name: 'Two' }] },
    });
    expect(fill.body.disabled_excess).toEqual([]);
    const list = await server.api<TSensorList>('GET', `${sensorPaths.list(projectId)}?limit=200`, { token: vendor.token });
    expect(list.body.telemetry_used).toBe(TELEMETRY_VALUE_SLOTS);
    const over = await server.api<TSensorSaveResult>('POST', sensorPaths.list(projectId), {
      token: vendor.token,
      body: { key: 'extra', name: 'Extra' },
    });
    expect(over.status).toBe(201);
    expect(over.body.disabled_excess).toEqual(['extra']);
    expect(over.body.data[0].enabled).toBe(false);
    // Disabling one triple frees 3 slots: enabling "extra" then fits.
    const t0 = list.body.data.find((s) => s.key === 't0') as TSensor;
    const extra = over.body.data[0];
    const swap = await server.api<TSensorSaveResult>('PUT', sensorPaths.listV2(projectId), {
      token: vendor.token,
      body: {
        sensors: [
          { id: t0.id, enabled: false },
          { id: extra.id, enabled: true },
        ],
      },
    });
    expect(swap.body.disabled_excess).toEqual([]);
    expect(swap.body.data.map((s) => s.enabled)).toEqual([false, true]);
  });

  it('sensor bus and display settings round-trip and validate', async () => {
    const projectId = await project();
    expect((await server.api<TSensorBus>('GET', sensorPaths.bus(projectId), { token: vendor.token })).body).toEqual({
      iface: 'I2C',
      port: 0,
    });
    expect((await server.api('PUT', sensorPaths.bus(projectId), { token: vendor.token, body: { iface: 'USB', port: 1 } })).status).toBe(
      400,
    );
    await server.api('PUT', sensorPaths.bus(projectId), { token: vendor.token, body: { iface: 'UART', port: 3 } });
    expect((await server.api<TSensorBus>('GET', sensorPaths.bus(projectId), { token: vendor.token })).body).toEqual({
      iface: 'UART',
      port: 3,
    });

    const sensorId = (await firstSensor(projectId)).id;
    const body = { sensor_id: sensorId, decimals: 1, gauge_min: -20, gauge_max: 80, color: '#ff0000' };
    expect((await server.api('POST', sensorPaths.displays, { token: vendor.token, body: { ...body, decimals: 7 } })).status).toBe(400);
    expect((await server.api('POST', sensorPaths.displays, { token: vendor.token, body })).status).toBe(201);
    expect((await server.api('POST', sensorPaths.displays, { token: vendor.token, body })).status).toBe(409);
    const put = await server.api<TSensorDisplay>('PUT', sensorPaths.display(sensorId), { token: vendor.token, body: { decimals: 0 } });
    expect(put.body).toEqual({ sensor_id: sensorId, decimals: 0, gauge_min: null, gauge_max: null, color: '#1677ff' });
    expect(
      (await server.api('PUT', sensorPaths.display(sensorId), { token: vendor.token, body: { gauge_min: 5, gauge_max: 1 } })).status,
    ).toBe(400);
    expect((await server.api('DELETE', sensorPaths.display(sensorId), { token: vendor.token })).status).toBe(204);
    expect((await server.api('GET', sensorPaths.display(sensorId), { token: vendor.token })).status).toBe(404);
  });

  it('tenant isolation: another vendor sees and changes none of it', async () => {
    const projectId = await project();
    const sensorId = (await firstSensor(projectId)).id;
    await server.api('POST', sensorPaths.displays, { token: vendor.token, body: { sensor_id: sensorId } });
    const t = other.token;
    const answers = [
      await server.api('GET', sensorPaths.list(projectId), { token: t }),
      await server.api('POST', sensorPaths.list(projectId), { token: t, body: { key: 'x', name: 'X' } }),
      await server.api('GET', sensorPaths.one(sensorId), { token: t }),
      await server.api('PUT', sensorPaths.one(sensorId), { token: t, body: { address: 9 } }),
      await server.api('DELETE', sensorPaths.one(sensorId), { token: t }),
      await server.api('PUT', sensorPaths.bus(projectId), { token: t, body: { iface: 'SPI', port: 1 } }),
      await server.api('GET', sensorPaths.display(sensorId), { token: t }),
      await server.api('POST', sensorPaths.displays, { token: t, body: { sensor_id: sensorId } }),
      await server.api('POST', sensorPaths.sync, { token: t, body: { project_id: projectId } }),
    ];
    expect(answers.map((a) => a.status)).toEqual(Array(answers.length).fill(404));
    const mine = await firstSensor(projectId);
    expect(mine.address).toBe(0);
    expect((await server.api<TSensorBus>('GET', sensorPaths.bus(projectId), { token: vendor.token })).body.iface).toBe('I2C');
    const theirs = await project(other.tenantId);
    const list = await server.api<TSensorList>('GET', sensorPaths.list(theirs), { token: vendor.token });
    expect(list.status).toBe(404);
  });
});
