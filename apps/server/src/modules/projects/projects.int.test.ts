import {
  customPagePaths,
  MAX_STATUS_LINES,
  paths,
  rulePaths,
  type TBlocklySetting,
  type TCustomPage,
  type TProject,
  type TSimpleRuleList,
  type TStatusGroup,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { customPages, projectSensors, projectSimpleRules, sensorDisplay } from '../../db/schema.js';
import { createProductVia, createProjectVia, moduleId, registerVia } from './catalogue.fixtures.js';
import { startTwoTenants } from '../../../test/tenants.js';

describe(`projects (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount, user: TBuiltAccount, other: TBuiltAccount;
  beforeAll(async () => {
    ({ server, vendor, user, other } = await startTwoTenants());
  });
  afterAll(() => server.stop());

  const sum = async (token: string) => (await server.api<{ total: number }>('GET', paths.projectsSum, { token })).body.total;

  describe('every route: 401 without a token, 403 for a user, 2xx for a vendor', () => {
    type TIds = { project: TProject; productId: number; moduleId: number };
    const routes: [string, (ids: TIds) => string, ((ids: TIds) => unknown)?][] = [
      ['GET', () => paths.projects],
      ['POST', () => paths.projects, (i) => ({ name: 'New', product_id: i.productId, tangram_product_id: i.moduleId })],
      ['POST', () => paths.projectCopy, (i) => ({ id: i.project.id, name: 'Copy' })],
      ['GET', () => paths.projectsSum],
      ['GET', (i) => paths.project(i.project.id)],
      ['PUT', (i) => paths.project(i.project.id), () => ({ name: 'Renamed' })],
      ['PUT', (i) => paths.projectRuleType(i.project.id), () => ({ rule_type: 'edge' })],
      ['GET', (i) => paths.projectDevices(i.project.id)],
      ['POST', (i) => paths.projectDevices(i.project.id), () => ({ serial_number: 'A1' })],
      ['POST', (i) => paths.projectDevicesBulk(i.project.id), () => ({ serial_numbers: ['B1', 'B2'] })],
      ['DELETE', (i) => paths.project(i.project.id)],
    ];
    for (const [method, url, body] of routes) {
      it(`${method} ${url({ project: { id: 1 } as TProject, productId: 1, moduleId: 1 })}`, async () => {
        const project = await createProjectVia(server, vendor.token);
        const ids = { project, productId: project.product_id, moduleId: project.tangram.CoreProductId };
        const opts = { body: body?.(ids) };
        const m = method as 'GET';
        expect((await server.api(m, url(ids), opts)).status).toBe(401);
        expect((await server.api(m, url(ids), { ...opts, token: user.token })).status).toBe(403);
        const ok = await server.api(m, url(ids), { ...opts, token: vendor.token });
        expect(ok.status, JSON.stringify(ok.body)).toBeLessThan(300);
      });
    }
  });

  it('creates a project on a product and a module, copying the module’s sensors', async () => {
    const v = await buildVendor(server);
    const product = await createProductVia(server, v.token, 'Drive');
    const mod = await moduleId(server, v.token);
    const res = await server.api<TProject>('POST', paths.projects, {
      token: v.token,
      body: { name: 'Line 1', description: 'first line', product_id: product.id, tangram_product_id: mod, device_authz_method: 'qrcode' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Line 1',
      description: 'first line',
      product_id: product.id,
      product_name: 'Drive',
      device_authz_method: 'qrcode',
      rule_type: 'level',
      status_groups: [],
      device_count: 0,
      tangram: { CoreProductId: mod },
    });
    const sensors = await server.ctx.db.select().from(projectSensors).where(eq(projectSensors.projectId, res.body.id));
    const template = await server.api<{ key: string }[]>('GET', paths.tangramProductSensors(mod), { token: v.token });
    expect(sensors.map((s) => s.key).sort()).toEqual(template.body.map((s) => s.key).sort());
    expect(await sum(v.token)).toBe(1);
    const found = await server.api<{ data: TProject[] }>('GET', `${paths.projects}?q=line`, { token: v.token });
    expect(found.body.data.map((p) => p.id)).toEqual([res.body.id]);
  });

  it('refuses another tenant’s product and an unknown module (404), writing nothing', async () => {
    const v = await buildVendor(server);
    const foreign = await createProductVia(server, vendor.token);
    const mod = await moduleId(server, v.token);
    const a = await server.api('POST', paths.projects, {
      token: v.token,
      body: { name: 'x', product_id: foreign.id, tangram_product_id: mod },
    });
    expect(a.status).toBe(404);
    const mine = await createProductVia(server, v.token);
    const b = await server.api('POST', paths.projects, {
      token: v.token,
      body: { name: 'x', product_id: mine.id, tangram_product_id: 999_999 },
    });
    expect(b.status).toBe(404);
    expect(await sum(v.token)).toBe(0);
  });

  it('isolates tenants: a second vendor sees none of the first’s projects and gets 404 on their ids', async () => {
    const p = await createProjectVia(server, vendor.token, 'Private project');
    const list = await server.api<{ data: TProject[] }>('GET', `${paths.projects}?limit=200`, { token: other.token });
    expect(list.body.data.find((x) => x.id === p.id)).toBeUndefined();
    for (const [method, url, body] of [
      ['GET', paths.project(p.id)],
      ['PUT', paths.project(p.id), { name: 'stolen' }],
      ['PUT', paths.projectRuleType(p.id), { rule_type: 'edge' }],
      ['DELETE', paths.project(p.id)],
      ['GET', paths.projectDevices(p.id)],
      ['POST', paths.projectDevices(p.id), { serial_number: 'F1' }],
      ['POST', paths.projectDevicesBulk(p.id), { serial_numbers: ['F2'] }],
      ['POST', paths.projectCopy, { id: p.id, name: 'copy' }],
    ] as const) {
      const res = await server.api(method, url, { token: other.token, body });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    const still = await server.api<TProject>('GET', paths.project(p.id), { token: vendor.token });
    expect(still.body).toMatchObject({ name: 'Private project', rule_type: 'level', device_count: 0 });
  });

  it('updates status groups, rule type and copies a project with its settings but not its devices', async () => {
    const p = await createProjectVia(server, vendor.token);
    const groups: TStatusGroup[] = [
      { name: 'Run', index: 0, bytesLength: 2, values: [{ value: 2, label: 'fault' }] },
      { name: 'Mode', index: 37, bytesLength: 3, values: [{ value: 7, label: 'max' }] },
    ];
    const put = await server.api<TProject>('PUT', paths.project(p.id), { token: vendor.token, body: { status_groups: groups } });
    expect(put.status).toBe(200);
    expect(put.body.status_groups).toEqual(groups);
    const rt = await server.api<TProject>('PUT', paths.projectRuleType(p.id), { token: vendor.token, body: { rule_type: 'edge' } });
    expect(rt.body.rule_type).toBe('edge');
    await registerVia(server, vendor.token, p.id, '1');
    const copy = await server.api<TProject>('POST', paths.projectCopy, { token: vendor.token, body: { id: p.id, name: 'Copied' } });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({
      name: 'Copied',
      status_groups: groups,
      rule_type: 'edge',
      device_count: 0,
      product_id: p.product_id,
    });
    const sensors = await server.ctx.db.select().from(projectSensors).where(eq(projectSensors.projectId, copy.body.id));
    expect(sensors.length).toBeGreaterThan(0);
  });

  it('copies the rules, blockly setting, sensor display and custom page with the configuration', async () => {
    const db = server.ctx.db;
    const p = await createProjectVia(server, vendor.token);
    const [sensor] = await db.select().from(projectSensors).where(eq(projectSensors.projectId, p.id)).limit(1);
    await db.insert(sensorDisplay).values({ sensorId: sensor.id, decimals: 3, color: '#ff0000' });
    const now = Date.now();
    await db.insert(projectSimpleRules).values({
      ...{ projectId: p.id, name: 'Too hot', enabled: true, key: sensor.key, slot: 'v1', op: 'gt', threshold: 80, durationS: 0 },
      ...{ level: 'alert', message: 'hot', notifyEmail: true, notifyLine: false, updatedAt: now },
    });
    const html = Buffer.from('<!doctype html><p>hi</p>');
    await db.insert(customPages).values({
      ...{ projectId: p.id, tenantId: vendor.tenantId, title: 'Board', html, sha256: 'x', sizeBytes: html.length },
      updatedAt: now,
    });
    const setting = { properties: [{ name: 'limit', value: 42 }] };
    expect((await server.api('PUT', rulePaths.blocklySetting(p.id), { token: vendor.token, body: setting })).status).toBe(200);

    const copy = await server.api<TProject>('POST', paths.projectCopy, { token: vendor.token, body: { id: p.id, name: 'Copy 2' } });
    const id = copy.body.id;
    const rules = await server.api<TSimpleRuleList>('GET', rulePaths.simples(id), { token: vendor.token });
    expect(rules.body.data.map((r) => [r.name, r.threshold])).toEqual([['Too hot', 80]]);
    expect((await server.api<TBlocklySetting>('GET', rulePaths.blocklySetting(id), { token: vendor.token })).body).toMatchObject(setting);
    expect((await server.api<TCustomPage>('GET', customPagePaths.page(id), { token: vendor.token })).body).toMatchObject({
      title: 'Board',
    });
    const [copied] = await db
      .select({ decimals: sensorDisplay.decimals, key: projectSensors.key })
      .from(sensorDisplay)
      .innerJoin(projectSensors, eq(projectSensors.id, sensorDisplay.sensorId))
      .where(eq(projectSensors.projectId, id));
    expect(copied).toEqual({ decimals: 3, key: sensor.key });
    // the original keeps its own rows
    expect((await server.api<TSimpleRuleList>('GET', rulePaths.simples(p.id), { token: vendor.token })).body.data).toHaveLength(1);
  });

  it('refuses to delete a project with devices (409 IN_USE) and deletes an empty one (204)', async () => {
    const p = await createProjectVia(server, vendor.token);
    await registerVia(server, vendor.token, p.id, 'ABC');
    const del = await server.api<{ code: string }>('DELETE', paths.project(p.id), { token: vendor.token });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('IN_USE');
    const empty = await createProjectVia(server, vendor.token);
    expect((await server.api('DELETE', paths.project(empty.id), { token: vendor.token })).status).toBe(204);
    expect((await server.api('GET', paths.project(empty.id), { token: vendor.token })).status).toBe(404);
  });

  describe('bad input: 400 VALIDATION_FAILED, nothing written', () => {
    const long = (n: number) => 'x'.repeat(n);
    const group = (over: Partial<TStatusGroup>): TStatusGroup => ({ name: 'G', index: 0, bytesLength: 1, values: [], ...over });

    it('POST: name over 32, description over 500, wrong types, bad enum', async () => {
      const v = await buildVendor(server);
      const product = await createProductVia(server, v.token);
      const mod = await moduleId(server, v.token);
      const ok = { name: 'P', product_id: product.id, tangram_product_id: mod };
      for (const body of [
        { ...ok, name: long(33) },
        { ...ok, description: long(501) },
        { ...ok, name: 7 },
        { ...ok, product_id: 'one' },
        { ...ok, tangram_product_id: 1.5 },
        { ...ok, device_authz_method: 'nfc' },
      ]) {
        const res = await server.api<{ code: string }>('POST', paths.projects, { token: v.token, body });
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      expect(await sum(v.token)).toBe(0);
      const atLimit = await server.api('POST', paths.projects, { token: v.token, body: { ...ok, name: long(32), description: long(500) } });
      expect(atLimit.status).toBe(201);
    });

    it('PUT: status groups over the spec limits are refused and the old definition stays', async () => {
      const p = await createProjectVia(server, vendor.token);
      const bad: unknown[] = [
        { name: long(33) },
        { description: long(501) },
        { device_authz_method: 1 },
        { status_groups: Array.from({ length: MAX_STATUS_LINES + 1 }, (_, i) => group({ name: `g${i}`, index: i })) },
        { status_groups: [group({ name: long(37) })] },
        { status_groups: [group({ index: 40 })] },
        { status_groups: [group({ index: 30, bytesLength: 11 })] },
        { status_groups: [group({ bytesLength: 17 })] },
        { status_groups: [group({ bytesLength: 2, values: [{ value: 4, label: 'x' }] })] },
        { status_groups: [group({ values: [{ value: 65_536, label: 'x' }] })] },
        { status_groups: [group({ values: [{ value: 1, label: long(37) }] })] },
        {
          status_groups: [
            group({
              values: [
                { value: 1, label: 'a' },
                { value: 1, label: 'b' },
              ],
            }),
          ],
        },
        { status_groups: 'none' },
      ];
      for (const body of bad) {
        const res = await server.api<{ code: string }>('PUT', paths.project(p.id), { token: vendor.token, body });
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      const after = await server.api<TProject>('GET', paths.project(p.id), { token: vendor.token });
      expect(after.body.name).toBe(p.name);
      expect(after.body.status_groups).toEqual([]);
      const atLimit = {
        name: long(32),
        status_groups: [
          ...Array.from({ length: MAX_STATUS_LINES - 1 }, (_, i) => group({ name: `g${i}`, index: i })),
          group({ name: long(36), index: 24, bytesLength: 16, values: [{ value: 65_535, label: long(36) }] }),
        ],
      };
      const ok = await server.api<TProject>('PUT', paths.project(p.id), { token: vendor.token, body: atLimit });
      expect(ok.status).toBe(200);
      expect(ok.body.status_groups).toHaveLength(MAX_STATUS_LINES);
    });

    it('ruleType and copy: bad values are refused', async () => {
      const p = await createProjectVia(server, vendor.token);
      expect((await server.api('PUT', paths.projectRuleType(p.id), { token: vendor.token, body: { rule_type: 'pulse' } })).status).toBe(
        400,
      );
      expect((await server.api('PUT', paths.projectRuleType(p.id), { token: vendor.token, body: {} })).status).toBe(400);
      const before = await sum(vendor.token);
      expect((await server.api('POST', paths.projectCopy, { token: vendor.token, body: { id: p.id, name: long(33) } })).status).toBe(400);
      expect((await server.api('POST', paths.projectCopy, { token: vendor.token, body: { id: 'x', name: 'c' } })).status).toBe(400);
      expect(await sum(vendor.token)).toBe(before);
      expect((await server.api<TProject>('GET', paths.project(p.id), { token: vendor.token })).body.rule_type).toBe('level');
    });
  });
});
