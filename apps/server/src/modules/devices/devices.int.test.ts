import {
  composeTangramId,
  parseTangramId,
  paths,
  TANGRAM_PREFIX,
  type TDevice,
  type TDeviceDetail,
  type TDeviceRegistered,
  type TTangramProductList,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { sha256 } from '../../core/crypto.js';
import { deviceAuthz, deviceIngestStats, devices, tenants } from '../../db/schema.js';
import { createProjectVia, registerVia } from '../projects/catalogue.fixtures.js';

type TList = { data: TDevice[]; total_items: number };

describe(`device registration and devices (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let other: TBuiltAccount;
  let projectId: number;
  let first: TDeviceRegistered;
  let second: TDeviceRegistered;
  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    other = await buildVendor(server);
    projectId = (await createProjectVia(server, vendor.token, 'Devices project')).id;
    first = await registerVia(server, vendor.token, projectId, 'a1b2');
    second = await registerVia(server, vendor.token, projectId, 'ff');
    await server.ctx.db.insert(deviceAuthz).values({ deviceId: first.id, accountId: user.accountId });
  });
  afterAll(() => server.stop());

  const countRows = async () => (await server.ctx.db.select().from(devices)).length;

  it('composes the Tangram ID from prefix, module, vendor class, tenant, product and padded serial', async () => {
    const project = await server.api<{ tangram: { CoreProductId: number }; product_id: number }>('GET', paths.project(projectId), {
      token: vendor.token,
    });
    const modules = await server.api<TTangramProductList>('GET', paths.tangramProducts, { token: vendor.token });
    const module = modules.body.data.find((m) => m.id === project.body.tangram.CoreProductId)!;
    const products = await server.api<{ id: number; model_number: string }[]>('GET', paths.productCatalog, { token: vendor.token });
    const product = products.body.find((p) => p.id === project.body.product_id)!;
    const [tenant] = await server.ctx.db.select().from(tenants).where(eq(tenants.id, vendor.tenantId));
    const parts = {
      prefix: TANGRAM_PREFIX,
      tangram_model_number: module.model_number,
      vendor_class: tenant.vendorClass,
      vendor_id: vendor.tenantId,
      product_model_number: product.model_number,
      serial_number: '00000000A1B2',
    };
    expect(first.tangram_id).toBe(composeTangramId(parts));
    expect(first.tangram_id_hex).toBe(first.tangram_id.toLowerCase());
    expect(first.sno).toBe('00000000A1B2');
    expect(first.name).toBe('00000000A1B2');
    const parsed = parseTangramId(first.tangram_id);
    expect(parsed).toMatchObject({ ...parts, vendor_id: vendor.tenantId.toString(16).toUpperCase().padStart(6, '0') });
    expect(composeTangramId(parsed)).toBe(first.tangram_id);
  });

  it('shows the secret once: stored as SHA-256, absent from every later answer', async () => {
    expect(first.device_secret.length).toBeGreaterThanOrEqual(43);
    const [row] = await server.ctx.db.select().from(devices).where(eq(devices.id, first.id));
    expect(row.secretHash).toBe(sha256(first.device_secret));
    for (const url of [paths.device(first.tangram_id), paths.deviceV2(first.tangram_id), paths.devices, paths.projectDevices(projectId)]) {
      const res = await server.api('GET', url, { token: vendor.token });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(first.device_secret);
      expect(JSON.stringify(res.body)).not.toContain('secret');
    }
  });

  it('answers 409 CONFLICT for a serial already registered (any case, any padding), writing nothing', async () => {
    const before = await countRows();
    const res = await server.api<{ code: string }>('POST', paths.projectDevices(projectId), {
      token: vendor.token,
      body: { serial_number: '0000A1B2', name: 'dup' },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    expect(await countRows()).toBe(before);
  });

  it('bulk registration is all or nothing when one serial collides', async () => {
    const before = await countRows();
    const res = await server.api('POST', paths.projectDevicesBulk(projectId), {
      token: vendor.token,
      body: { serial_numbers: ['100', '101', 'FF', '102'] },
    });
    expect(res.status).toBe(409);
    expect(await countRows()).toBe(before);
    const ok = await server.api<TDeviceRegistered[]>('POST', paths.projectDevicesBulk(projectId), {
      token: vendor.token,
      body: { serial_numbers: ['100', '101', '102'] },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.map((d) => d.sno)).toEqual(['000000000100', '000000000101', '000000000102']);
    expect(new Set(ok.body.map((d) => d.device_secret)).size).toBe(3);
    expect(await countRows()).toBe(before + 3);
    const repeat = await server.api('POST', paths.projectDevicesBulk(projectId), {
      token: vendor.token,
      body: { serial_numbers: ['7', '07'] },
    });
    expect(repeat.status).toBe(400);
  });

  describe('bad input: 400 VALIDATION_FAILED, nothing written', () => {
    const cases: [string, unknown][] = [
      ['serial over 12 hex digits', { serial_number: '1234567890ABC' }],
      ['serial not hex', { serial_number: 'XYZ' }],
      ['empty serial', { serial_number: '' }],
      ['serial of the wrong type', { serial_number: 12 }],
      ['name over 32', { serial_number: 'C1', name: 'n'.repeat(33) }],
      ['name of the wrong type', { serial_number: 'C2', name: true }],
    ];
    for (const [label, body] of cases) {
      it(label, async () => {
        const before = await countRows();
        const res = await server.api<{ code: string }>('POST', paths.projectDevices(projectId), { token: vendor.token, body });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(await countRows()).toBe(before);
      });
    }
    it('bulk: over 1000 serials, an empty list, a wrong type', async () => {
      const before = await countRows();
      const many = Array.from({ length: 1001 }, (_, i) => (i + 0x1000).toString(16));
      for (const body of [{ serial_numbers: many }, { serial_numbers: [] }, { serial_numbers: 'ABC' }, { serial_numbers: ['G1'] }]) {
        const res = await server.api('POST', paths.projectDevicesBulk(projectId), { token: vendor.token, body });
        expect(res.status).toBe(400);
      }
      expect(await countRows()).toBe(before);
    });
    it('accepts a 12-digit serial and a 32-character name; exactly 1000 serials in bulk', async () => {
      const res = await server.api<TDevice>('POST', paths.projectDevices(projectId), {
        token: vendor.token,
        body: { serial_number: 'abcdefabcdef', name: 'n'.repeat(32) },
      });
      expect(res.status).toBe(201);
      expect(res.body.tangram_id.endsWith('ABCDEFABCDEF')).toBe(true);
      const p = await createProjectVia(server, vendor.token);
      const many = Array.from({ length: 1000 }, (_, i) => (i + 0x1000).toString(16));
      const bulk = await server.api<TDeviceRegistered[]>('POST', paths.projectDevicesBulk(p.id), {
        token: vendor.token,
        body: { serial_numbers: many },
      });
      expect(bulk.status).toBe(201);
      expect(bulk.body).toHaveLength(1000);
    });
    it('PUT: name over 32, nickname over 20, wrong types; exactly at the limits is fine', async () => {
      for (const body of [{ name: 'n'.repeat(33) }, { nickname: 'k'.repeat(21) }, { nickname: 5 }, { name: '' }]) {
        const res = await server.api('PUT', paths.device(second.tangram_id), { token: vendor.token, body });
        expect(res.status).toBe(400);
      }
      const unchanged = await server.api<TDevice>('GET', paths.device(second.tangram_id), { token: vendor.token });
      expect(unchanged.body).toMatchObject({ name: second.name, nickname: '' });
      const ok = await server.api<TDevice>('PUT', paths.device(second.tangram_id), {
        token: vendor.token,
        body: { name: 'n'.repeat(32), nickname: 'k'.repeat(20) },
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ name: 'n'.repeat(32), nickname: 'k'.repeat(20) });
    });
  });

  describe('device routes: 401 without a token, 200 for vendor and authorised user', () => {
    const reads = [
      () => paths.devices,
      () => paths.devicesSum,
      () => paths.devicesV2,
      () => paths.device(first.tangram_id),
      () => paths.deviceV2(first.tangram_id),
    ];
    for (const url of reads) {
      it(`GET ${url.toString().match(/paths\.(\w+)/)?.[1]}`, async () => {
        expect((await server.api('GET', url())).status).toBe(401);
        expect((await server.api('GET', url(), { token: user.token })).status).toBe(200);
        expect((await server.api('GET', url(), { token: vendor.token })).status).toBe(200);
      });
    }
    it('PUT devices/{id}: 401, 403 for a user, 200 for the vendor', async () => {
      const body = { nickname: 'Left' };
      expect((await server.api('PUT', paths.device(first.tangram_id), { body })).status).toBe(401);
      expect((await server.api('PUT', paths.device(first.tangram_id), { token: user.token, body })).status).toBe(403);
      const ok = await server.api<TDevice>('PUT', paths.device(first.tangram_id.toLowerCase()), { token: vendor.token, body });
      expect(ok.status).toBe(200);
      expect(ok.body.nickname).toBe('Left');
    });
  });

  it('a user sees only devices authorised to them', async () => {
    const list = await server.api<TList>('GET', paths.devices, { token: user.token });
    expect(list.body.data.map((d) => d.tangram_id)).toEqual([first.tangram_id]);
    expect(list.body.total_items).toBe(1);
    expect((await server.api<{ total: number }>('GET', paths.devicesSum, { token: user.token })).body.total).toBe(1);
    expect((await server.api('GET', paths.device(second.tangram_id), { token: user.token })).status).toBe(404);
    expect((await server.api('GET', paths.deviceV2(second.tangram_id), { token: user.token })).status).toBe(404);
    const stranger = await buildUser(server, vendor.tenantId);
    expect((await server.api<TList>('GET', paths.devicesV2, { token: stranger.token })).body.data).toEqual([]);
  });

  it('isolates tenants: a second vendor sees none of the first’s devices and gets 404 on their ids', async () => {
    const list = await server.api<TList>('GET', `${paths.devices}?limit=200`, { token: other.token });
    expect(list.body.total_items).toBe(0);
    expect((await server.api<{ total: number }>('GET', paths.devicesSum, { token: other.token })).body.total).toBe(0);
    expect((await server.api('GET', paths.device(first.tangram_id), { token: other.token })).status).toBe(404);
    expect((await server.api('GET', paths.deviceV2(first.tangram_id), { token: other.token })).status).toBe(404);
    expect((await server.api('PUT', paths.device(first.tangram_id), { token: other.token, body: { name: 'x' } })).status).toBe(404);
    expect((await server.api('GET', paths.device('0'.repeat(30)), { token: vendor.token })).status).toBe(404);
    expect((await server.api('GET', paths.device('not-an-id'), { token: vendor.token })).status).toBe(400);
  });

  it('lists, searches and filters devices; online means heard from within 2 minutes', async () => {
    const now = Date.now();
    await server.ctx.db
      .update(devices)
      .set({ lastSeenAt: now - 60_000 })
      .where(eq(devices.id, first.id));
    await server.ctx.db
      .update(devices)
      .set({ lastSeenAt: now - 180_000 })
      .where(eq(devices.id, second.id));
    const byQ = await server.api<TList>('GET', `${paths.devices}?q=${first.tangram_id.slice(-6).toLowerCase()}`, { token: vendor.token });
    expect(byQ.body.data.map((d) => d.id)).toEqual([first.id]);
    expect(byQ.body.data[0]).toMatchObject({
      online: true,
      last_seen_at: now - 60_000,
      project_id: projectId,
      project_name: 'Devices project',
    });
    const byNick = await server.api<TList>('GET', `${paths.devicesV2}?q=lef`, { token: vendor.token });
    expect(byNick.body.data.map((d) => d.id)).toEqual([first.id]);
    expect((await server.api<TDevice>('GET', paths.device(second.tangram_id), { token: vendor.token })).body.online).toBe(false);
    const otherProject = await createProjectVia(server, vendor.token);
    await registerVia(server, vendor.token, otherProject.id, '1');
    const filtered = await server.api<TList>('GET', `${paths.devices}?project_id=${otherProject.id}`, { token: vendor.token });
    expect(filtered.body.total_items).toBe(1);
    const sum = await server.api<{ total: number }>('GET', `${paths.devicesSum}?project_id=${otherProject.id}`, { token: vendor.token });
    expect(sum.body.total).toBe(1);
    const projectList = await server.api<TList>('GET', `${paths.projectDevices(otherProject.id)}?limit=1`, { token: vendor.token });
    expect(projectList.body).toMatchObject({ total_items: 1, limit: 1, page: 1 });
  });

  it('v2 detail carries the project’s status groups, sensors and ingest rejection counters', async () => {
    const groups = [{ name: 'Run', index: 0, bytesLength: 1, values: [{ value: 1, label: 'on' }] }];
    await server.api('PUT', paths.project(projectId), { token: vendor.token, body: { status_groups: groups } });
    await server.ctx.db.insert(deviceIngestStats).values({ deviceId: first.id, reason: 'unknown_key', count: 3, lastAt: Date.now() });
    const res = await server.api<TDeviceDetail>('GET', paths.deviceV2(first.tangram_id), { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.status_groups).toEqual(groups);
    expect(res.body.ingest_rejected).toEqual({ unknown_key: 3 });
    expect(res.body.sensors.length).toBeGreaterThan(0);
    expect(res.body.sensors[0]).toMatchObject({ enabled: true });
  });
});
