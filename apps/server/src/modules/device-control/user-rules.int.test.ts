/**
 * App rules (`userRules`) and the push switch (`configFCMStatus`) of the device detail page: a user manages its own
 * rules per device; the vendor reads every user's rules of its device; other tenants and unauthorised users see 404.
 */
import {
  deviceControlPaths as p,
  ErrorCode,
  NAME_MAX,
  USER_RULES_MAX,
  type TFcmStatus,
  type TPage,
  type TUserRule,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';

const RULE = { name: 'Too hot', key: 'temperature', op: 'gt', threshold: 30 };

describe(`app rules and push switch (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let user2: TBuiltAccount;
  let outsider: TBuiltAccount;
  let outsiderUser: TBuiltAccount;
  let devs: TBuiltDevice[];

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    user2 = await buildUser(server, vendor.tenantId);
    outsider = await buildVendor(server);
    outsiderUser = await buildUser(server, outsider.tenantId);
    devs = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 })).devices;
    for (const d of devs) await authorise(server.ctx.db, d.id, user.accountId);
    await authorise(server.ctx.db, devs[0].id, user2.accountId);
  });
  afterAll(() => server.stop());

  const create = (device: TBuiltDevice, body: unknown, token = user.token) =>
    server.api<TUserRule>('POST', p.userRules(device.tangramId), { token, body });
  const list = (device: TBuiltDevice, token = user.token) => server.api<TPage<TUserRule>>('GET', p.userRules(device.tangramId), { token });

  describe('refusals on every route', () => {
    it('401 without a token; 404 for another tenant, an unauthorised user and an unknown device', async () => {
      const rule = await create(devs[0], RULE);
      expect(rule.status).toBe(201);
      const d = devs[0].tangramId;
      const routes: [string, string, unknown?][] = [
        ['GET', p.userRules(d)],
        ['POST', p.userRules(d), RULE],
        ['PUT', p.userRule(d, rule.body.id), { threshold: 1 }],
        ['DELETE', p.userRule(d, rule.body.id)],
      ];
      for (const [method, url, body] of routes) {
        const m = method as 'GET';
        expect((await server.api(m, url, { body })).status, `${method} ${url}`).toBe(401);
        expect((await server.api(m, url, { body, token: outsider.token })).status, `${method} ${url}`).toBe(404);
        expect((await server.api(m, url, { body, token: outsiderUser.token })).status, `${method} ${url}`).toBe(404);
      }
      const unseen = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 })).devices[0];
      expect((await list(unseen)).status).toBe(404);
      expect((await create(unseen, RULE)).status).toBe(404);
      expect((await server.api('GET', p.userRules('F'.repeat(30)), { token: user.token })).status).toBe(404);
    });

    it('a vendor reads every user rule of its device but may not add, edit or delete (403)', async () => {
      const mine = await create(devs[1], { ...RULE, name: 'mine' });
      const theirs = await create(devs[1], { ...RULE, name: 'theirs' }, user.token);
      expect(mine.status).toBe(201);
      const seen = await list(devs[1], vendor.token);
      expect(seen.status).toBe(200);
      expect(seen.body.data.map((r) => [r.name, r.account_email])).toEqual([
        ['mine', user.email],
        ['theirs', user.email],
      ]);
      expect((await create(devs[1], RULE, vendor.token)).status).toBe(403);
      expect(
        (await server.api('PUT', p.userRule(devs[1].tangramId, theirs.body.id), { token: vendor.token, body: { threshold: 1 } })).status,
      ).toBe(403);
      expect((await server.api('DELETE', p.userRule(devs[1].tangramId, theirs.body.id), { token: vendor.token })).status).toBe(403);
    });
  });

  it('add, list, edit and delete an app rule; defaults filled; another user sees none of it', async () => {
    const created = await create(devs[2], { ...RULE, key: 'vibration', slot: 'v3', op: 'gte', threshold: 1.25, level: 'alert' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      tangram_id: devs[2].tangramId,
      account_id: user.accountId,
      account_email: user.email,
      name: 'Too hot',
      key: 'vibration',
      slot: 'v3',
      op: 'gte',
      threshold: 1.25,
      level: 'alert',
      enabled: true,
      cooldown_s: 300,
    });
    const listed = await list(devs[2]);
    expect(listed.body).toMatchObject({ total_items: 1, page: 1 });
    expect(listed.body.data[0]).toEqual(created.body);

    const url = p.userRule(devs[2].tangramId, created.body.id);
    const edited = await server.api<TUserRule>('PUT', url, { token: user.token, body: { name: 'Shaking', enabled: false, cooldown_s: 0 } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Shaking', enabled: false, cooldown_s: 0, key: 'vibration', slot: 'v3', threshold: 1.25 });
    expect(edited.body.updated_at).toBeGreaterThanOrEqual(created.body.updated_at);
    expect((await list(devs[2])).body.data[0].name).toBe('Shaking');

    // user2 sees only its own rules, and cannot touch user's (404, as if it did not exist).
    await authorise(server.ctx.db, devs[2].id, user2.accountId);
    expect((await list(devs[2], user2.token)).body.total_items).toBe(0);
    expect((await server.api('PUT', url, { token: user2.token, body: { threshold: 1 } })).status).toBe(404);
    expect((await server.api('DELETE', url, { token: user2.token })).status).toBe(404);
    // The rule id under another device's path is not found either.
    expect((await server.api('DELETE', p.userRule(devs[0].tangramId, created.body.id), { token: user.token })).status).toBe(404);

    expect((await server.api('DELETE', url, { token: user.token })).status).toBe(204);
    expect((await list(devs[2])).body.total_items).toBe(0);
    expect((await server.api('DELETE', url, { token: user.token })).status).toBe(404);
  });

  it('400 at one past each bound, and for a key or value slot the device does not have', async () => {
    const d = devs[0];
    expect((await create(d, { ...RULE, name: 'x'.repeat(NAME_MAX) })).status).toBe(201);
    const tooLong = await create(d, { ...RULE, name: 'x'.repeat(NAME_MAX + 1) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: ErrorCode.Validation });
    expect((await create(d, { ...RULE, threshold: 1e9 + 1 })).status).toBe(400);
    expect((await create(d, { ...RULE, cooldown_s: 86_401 })).status).toBe(400);
    expect((await create(d, { ...RULE, op: 'between' })).status).toBe(400);
    expect((await create(d, { ...RULE, name: '' })).status).toBe(400);

    const noKey = await create(d, { ...RULE, key: 'pressure' });
    expect(noKey.status).toBe(400);
    expect(noKey.body).toMatchObject({ code: ErrorCode.Validation, message: expect.stringContaining('pressure') });
    // temperature carries one value: v2 is not one of its slots; vibration carries three.
    expect((await create(d, { ...RULE, slot: 'v2' })).status).toBe(400);
    const vib = await create(d, { ...RULE, key: 'vibration', slot: 'v2' });
    expect(vib.status).toBe(201);
    const moved = await server.api('PUT', p.userRule(d.tangramId, vib.body.id), { token: user.token, body: { key: 'temperature' } });
    expect(moved.status).toBe(400);
    expect((await server.api('PUT', p.userRule(d.tangramId, vib.body.id), { token: user.token, body: { threshold: 'x' } })).status).toBe(
      400,
    );
  });

  it(`at most ${USER_RULES_MAX} rules per account and device: the next is a 409, other accounts unaffected`, async () => {
    const d = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 })).devices[0];
    await authorise(server.ctx.db, d.id, user.accountId);
    await authorise(server.ctx.db, d.id, user2.accountId);
    const made = await Promise.all(Array.from({ length: USER_RULES_MAX + 2 }, (_, i) => create(d, { ...RULE, name: `r${i}` })));
    expect(made.filter((r) => r.status === 201)).toHaveLength(USER_RULES_MAX);
    expect(made.filter((r) => r.status === 409)).toHaveLength(2);
    expect((await list(d)).body.total_items).toBe(USER_RULES_MAX);
    expect((await create(d, RULE, user2.token)).status).toBe(201);
  });

  describe('configFCMStatus: a per-account, per-device push switch', () => {
    const get = (device: TBuiltDevice | string, token?: string) =>
      server.api<TFcmStatus>('GET', `${p.fcmStatus}?tangram_id=${typeof device === 'string' ? device : device.tangramId}`, { token });
    const put = (body: unknown, token?: string) => server.api<TFcmStatus>('PUT', p.fcmStatus, { token, body });

    it('is off until set; set and read per account and device; a lower-case ID is the same device', async () => {
      const d = devs[0];
      expect((await get(d, user.token)).body).toEqual({ tangram_id: d.tangramId, enabled: false, updated_at: null });
      const on = await put({ tangram_id: d.tangramId.toLowerCase(), enabled: true }, user.token);
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({ tangram_id: d.tangramId, enabled: true });
      expect((await get(d, user.token)).body.enabled).toBe(true);
      expect((await get(d, user2.token)).body.enabled).toBe(false);
      expect((await get(devs[1], user.token)).body.enabled).toBe(false);
      expect((await put({ tangram_id: d.tangramId, enabled: true }, vendor.token)).status).toBe(200);
      expect((await put({ tangram_id: d.tangramId, enabled: false }, user.token)).body.enabled).toBe(false);
      expect((await get(d, vendor.token)).body.enabled).toBe(true);
    });

    it('refuses: 401 without a token, 404 for a device the caller may not see, 400 for a bad body', async () => {
      const d = devs[0];
      expect((await get(d)).status).toBe(401);
      expect((await put({ tangram_id: d.tangramId, enabled: true })).status).toBe(401);
      expect((await get(d, outsider.token)).status).toBe(404);
      expect((await put({ tangram_id: d.tangramId, enabled: true }, outsider.token)).status).toBe(404);
      expect((await put({ tangram_id: devs[1].tangramId, enabled: true }, user2.token)).status).toBe(404);
      expect((await put({ tangram_id: d.tangramId, enabled: 'yes' }, user.token)).status).toBe(400);
      expect((await put({ tangram_id: `${d.tangramId}0`, enabled: true }, user.token)).status).toBe(400);
      expect((await get('XYZ', user.token)).status).toBe(400);
    });
  });

  it('documents every device-control route in /openapi.json', async () => {
    const doc = await server.api<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    const id = '{tangramId}';
    const expected: [string, string][] = [
      [p.getDeviceInfo(id), 'post'],
      [p.sensorCommand(id), 'post'],
      [p.commands(id), 'get'],
      [p.userRules(id), 'get'],
      [p.userRules(id), 'post'],
      [`${p.userRules(id)}/{id}`, 'put'],
      [`${p.userRules(id)}/{id}`, 'delete'],
      [p.fcmStatus, 'get'],
      [p.fcmStatus, 'put'],
      [p.cleanData(id), 'post'],
    ];
    for (const [path, method] of expected) expect(doc.body.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });
});
