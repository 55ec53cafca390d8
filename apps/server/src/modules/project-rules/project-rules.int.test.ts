import {
  BLOCKLY_PROPERTIES_MAX,
  paths,
  RULE_MESSAGE_MAX,
  RULE_WINDOW_MAX_S,
  rulePaths,
  SIMPLE_RULES_MAX,
  type TBlocklySetting,
  type TSimpleRule,
  type TSimpleRuleList,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import type { TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { projectBlocklyPrograms, projectBlocklySettings, projectSimpleRules } from '../../db/schema.js';
import { hotRule, workspace } from './compiler/workspace.fixtures.js';
import { startTwoTenants } from '../../../test/tenants.js';

const overheat = { name: 'Overheat', key: 'temperature', op: 'gt', threshold: 30, level: 'alert', message: 'Too hot' };

describe(`project rules: routes, simple rules, blockly setting (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount, user: TBuiltAccount, other: TBuiltAccount;
  beforeAll(async () => {
    ({ server, vendor, user, other } = await startTwoTenants());
  });
  afterAll(() => server.stop());

  const project = async () => (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 0 })).projectId;
  const addRule = async (projectId: number, extra: object = {}) => {
    const res = await server.api<TSimpleRule>('POST', rulePaths.simples(projectId), {
      token: vendor.token,
      body: { ...overheat, ...extra },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const addProgram = async (projectId: number, name = 'P') => {
    const res = await server.api<{ id: number }>('POST', rulePaths.blocklys(projectId), {
      token: vendor.token,
      body: { name, workspace: workspace(hotRule()) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  };
  const rulesIn = async (projectId: number) =>
    server.ctx.db.select().from(projectSimpleRules).where(eq(projectSimpleRules.projectId, projectId));

  describe('every route: 401 without a token, 403 for a user, 404 for another vendor, 2xx for the vendor, 400 for bad input', () => {
    type TIds = { projectId: number; ruleId: number; programId: number };
    // [method, url, good body, bad url or body]
    const routes: [string, (i: TIds) => string, ((i: TIds) => unknown) | null, { url?: (i: TIds) => string; body?: unknown }][] = [
      ['GET', (i) => rulePaths.simples(i.projectId), null, { url: (i) => `${rulePaths.simples(i.projectId)}?limit=0` }],
      [
        'POST',
        (i) => rulePaths.simples(i.projectId),
        () => ({ ...overheat, name: 'New' }),
        { body: { ...overheat, name: 'n'.repeat(33) } },
      ],
      ['PUT', (i) => rulePaths.simple(i.projectId, i.ruleId), () => ({ threshold: 35 }), { body: { duration_s: RULE_WINDOW_MAX_S + 1 } }],
      ['DELETE', (i) => rulePaths.simple(i.projectId, i.ruleId), null, { url: (i) => `${rulePaths.simples(i.projectId)}/x` }],
      ['POST', (i) => rulePaths.compile(i.projectId), () => ({ workspace: workspace(hotRule()) }), { body: {} }],
      ['GET', (i) => rulePaths.blocklys(i.projectId), null, { url: (i) => `${rulePaths.blocklys(i.projectId)}?page=0` }],
      ['POST', (i) => rulePaths.blocklys(i.projectId), () => ({ name: 'New', workspace: {} }), { body: { name: '', workspace: {} } }],
      ['GET', (i) => rulePaths.blockly(i.projectId, i.programId), null, { url: (i) => `${rulePaths.blocklys(i.projectId)}/abc` }],
      ['PUT', (i) => rulePaths.blockly(i.projectId, i.programId), () => ({ enabled: false }), { body: { enabled: 'yes' } }],
      ['DELETE', (i) => rulePaths.blockly(i.projectId, i.programId), null, { url: (i) => `${rulePaths.blocklys(i.projectId)}/0` }],
      ['GET', (i) => rulePaths.blocklySetting(i.projectId), null, { url: () => rulePaths.blocklySetting(0) }],
      [
        'PUT',
        (i) => rulePaths.blocklySetting(i.projectId),
        () => ({ properties: [{ name: 'limit', value: 30 }] }),
        { body: { properties: [{ name: 'limit', value: '30' }] } },
      ],
    ];
    for (const [method, url, body, bad] of routes) {
      it(`${method} ${url({ projectId: 1, ruleId: 2, programId: 3 })}`, async () => {
        const projectId = await project();
        const ids = { projectId, ruleId: (await addRule(projectId)).id, programId: await addProgram(projectId) };
        const opts = { body: body?.(ids) };
        const m = method as 'GET';
        expect((await server.api(m, url(ids), opts)).status).toBe(401);
        expect((await server.api(m, url(ids), { ...opts, token: user.token })).status).toBe(403);
        const foreign = await server.api<{ code: string }>(m, url(ids), { ...opts, token: other.token });
        expect(foreign.status).toBe(404);
        expect(foreign.body.code).toBe('NOT_FOUND');
        const invalid = await server.api<{ code: string }>(m, bad.url?.(ids) ?? url(ids), {
          token: vendor.token,
          body: bad.body ?? opts.body,
        });
        expect(invalid.status, JSON.stringify(invalid.body)).toBe(400);
        expect(invalid.body.code).toBe('VALIDATION_FAILED');
        const ok = await server.api(m, url(ids), { ...opts, token: vendor.token });
        expect(ok.status, JSON.stringify(ok.body)).toBeLessThan(300);
      });
    }
  });

  it('a rule or program of another project of the same tenant answers 404', async () => {
    const [a, b] = [await project(), await project()];
    const rule = await addRule(a);
    const program = await addProgram(a);
    for (const [m, url, body] of [
      ['PUT', rulePaths.simple(b, rule.id), { threshold: 1 }],
      ['DELETE', rulePaths.simple(b, rule.id)],
      ['GET', rulePaths.blockly(b, program)],
      ['PUT', rulePaths.blockly(b, program), { enabled: false }],
      ['DELETE', rulePaths.blockly(b, program)],
    ] as const) {
      expect((await server.api(m, url, { token: vendor.token, body })).status, `${m} ${url}`).toBe(404);
    }
    expect((await rulesIn(a))[0]).toMatchObject({ threshold: 30 });
  });

  describe('simple rules', () => {
    it('adds, lists, updates and deletes; another vendor changes nothing', async () => {
      const projectId = await project();
      const rule = await addRule(projectId, { slot: 'v1', duration_s: 60, notify_line: true });
      expect(rule).toMatchObject({ ...overheat, slot: 'v1', duration_s: 60, enabled: true, notify_email: false, notify_line: true });
      const list = await server.api<TSimpleRuleList>('GET', rulePaths.simples(projectId), { token: vendor.token });
      expect(list.body).toMatchObject({ total_items: 1, page: 1, data: [{ id: rule.id, name: 'Overheat' }] });
      const put = await server.api<TSimpleRule>('PUT', rulePaths.simple(projectId, rule.id), {
        token: vendor.token,
        body: { threshold: 42.5, enabled: false, key: 'vibration', slot: 'v3' },
      });
      expect(put.body).toMatchObject({ threshold: 42.5, enabled: false, key: 'vibration', slot: 'v3', name: 'Overheat', duration_s: 60 });
      expect(put.body.updated_at).toBeGreaterThanOrEqual(rule.updated_at);
      expect((await server.api('PUT', rulePaths.simple(projectId, rule.id), { token: other.token, body: { threshold: 1 } })).status).toBe(
        404,
      );
      expect((await server.api('DELETE', rulePaths.simple(projectId, rule.id), { token: other.token })).status).toBe(404);
      expect((await rulesIn(projectId))[0].threshold).toBe(42.5);
      expect((await server.api('DELETE', rulePaths.simple(projectId, rule.id), { token: vendor.token })).status).toBe(204);
      expect(await rulesIn(projectId)).toEqual([]);
      expect((await server.api('DELETE', rulePaths.simple(projectId, rule.id), { token: vendor.token })).status).toBe(404);
    });

    it('the key must be a sensor of the project and the slot within its values (400)', async () => {
      const projectId = await project();
      const rule = await addRule(projectId, { key: 'vibration', slot: 'v3' });
      for (const body of [
        { ...overheat, name: 'x', key: 'pressure' },
        { ...overheat, name: 'x', key: 'temperature', slot: 'v2' },
      ]) {
        const res = await server.api<{ code: string; message: string }>('POST', rulePaths.simples(projectId), {
          token: vendor.token,
          body,
        });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      const slotOnly = await server.api('PUT', rulePaths.simple(projectId, rule.id), { token: vendor.token, body: { key: 'current' } });
      expect(slotOnly.status).toBe(400); // current carries one value; the rule's v3 does not exist there
      expect(await rulesIn(projectId)).toHaveLength(1);
    });

    it('names are unique per project (409), not across projects', async () => {
      const [a, b] = [await project(), await project()];
      await addRule(a);
      const dup = await server.api<{ code: string }>('POST', rulePaths.simples(a), { token: vendor.token, body: overheat });
      expect(dup).toMatchObject({ status: 409, body: { code: 'RULE_NAME_TAKEN' } });
      await addRule(b);
      const second = await addRule(a, { name: 'Second' });
      const rename = await server.api<{ code: string }>('PUT', rulePaths.simple(a, second.id), {
        token: vendor.token,
        body: { name: 'Overheat' },
      });
      expect(rename).toMatchObject({ status: 409, body: { code: 'RULE_NAME_TAKEN' } });
    });

    it(`at most ${SIMPLE_RULES_MAX} per project: the ${SIMPLE_RULES_MAX}th is added, the next is refused (409)`, async () => {
      const projectId = await project();
      const rows = Array.from({ length: SIMPLE_RULES_MAX - 1 }, (_, i) => ({
        projectId,
        name: `r${i}`,
        enabled: true,
        key: 'temperature',
        slot: 'v1' as const,
        op: 'gt' as const,
        threshold: i,
        durationS: 0,
        level: 'remind' as const,
        message: 'm',
        notifyEmail: false,
        notifyLine: false,
        updatedAt: Date.now(),
      }));
      await server.ctx.db.insert(projectSimpleRules).values(rows);
      await addRule(projectId, { name: 'last' });
      const over = await server.api<{ code: string }>('POST', rulePaths.simples(projectId), {
        token: vendor.token,
        body: { ...overheat, name: 'over' },
      });
      expect(over).toMatchObject({ status: 409, body: { code: 'RULES_LIMIT_REACHED' } });
      expect(await rulesIn(projectId)).toHaveLength(SIMPLE_RULES_MAX);
      const page = await server.api<TSimpleRuleList>('GET', `${rulePaths.simples(projectId)}?limit=200`, { token: vendor.token });
      expect(page.body.data).toHaveLength(SIMPLE_RULES_MAX);
    });

    describe('bounds on the endpoint: the bound is saved, one past it is 400 and nothing is written', () => {
      const cases: [string, unknown, unknown][] = [
        ['name', 'n'.repeat(32), 'n'.repeat(33)],
        ['duration_s', RULE_WINDOW_MAX_S, RULE_WINDOW_MAX_S + 1],
        ['duration_s', 0, -1],
        ['message', 'm'.repeat(RULE_MESSAGE_MAX), 'm'.repeat(RULE_MESSAGE_MAX + 1)],
        ['slot', 'v1', 'v4'],
      ];
      for (const [field, good, bad] of cases) {
        it(`${field}: ${String(good).slice(0, 8)} ok, ${String(bad).slice(0, 8)} refused`, async () => {
          const projectId = await project();
          const no = await server.api<{ code: string }>('POST', rulePaths.simples(projectId), {
            token: vendor.token,
            body: { ...overheat, [field]: bad },
          });
          expect(no.status).toBe(400);
          expect(await rulesIn(projectId)).toHaveLength(0);
          const rule = await addRule(projectId, { [field]: good });
          expect(rule[field as keyof TSimpleRule]).toBe(good);
          expect(
            (await server.api('PUT', rulePaths.simple(projectId, rule.id), { token: vendor.token, body: { [field]: bad } })).status,
          ).toBe(400);
        });
      }
    });
  });

  describe('blockly setting', () => {
    const setting = (projectId: number, token = vendor.token) =>
      server.api<TBlocklySetting>('GET', rulePaths.blocklySetting(projectId), { token });
    const put = (projectId: number, properties: unknown) =>
      server.api<TBlocklySetting>('PUT', rulePaths.blocklySetting(projectId), { token: vendor.token, body: { properties } });
    const props = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `p${i}`, value: i / 2 }));

    it('starts empty; PUT replaces the list in order', async () => {
      const projectId = await project();
      expect((await setting(projectId)).body).toEqual({ properties: [] });
      const saved = await put(projectId, [
        { name: ' limit ', value: 30 },
        { name: '溫度上限', value: -1.5 },
      ]);
      expect(saved.body).toEqual({
        properties: [
          { name: 'limit', value: 30 },
          { name: '溫度上限', value: -1.5 },
        ],
      });
      expect((await put(projectId, [{ name: 'x', value: 1 }])).body.properties).toEqual([{ name: 'x', value: 1 }]);
      expect((await setting(projectId, other.token)).status).toBe(404);
    });

    it(`bounds: ${BLOCKLY_PROPERTIES_MAX} properties and names of 32 are saved; one more, a longer name or a duplicate is 400`, async () => {
      const projectId = await project();
      await put(projectId, [{ name: 'keep', value: 1 }]);
      for (const bad of [
        props(BLOCKLY_PROPERTIES_MAX + 1),
        [{ name: 'n'.repeat(33), value: 1 }],
        [...props(2), { name: 'p1', value: 9 }],
      ]) {
        const res = await put(projectId, bad);
        expect(res.status).toBe(400);
        expect((await setting(projectId)).body.properties).toEqual([{ name: 'keep', value: 1 }]);
      }
      expect((await put(projectId, props(BLOCKLY_PROPERTIES_MAX))).body.properties).toHaveLength(BLOCKLY_PROPERTIES_MAX);
      expect((await put(projectId, [{ name: 'n'.repeat(32), value: 1 }])).status).toBe(200);
    });
  });

  it('the routes are documented in /openapi.json', async () => {
    const res = await server.api<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    const documented = Object.keys(res.body.paths);
    for (const p of ['simples', 'simples/{ruleId}', 'blocklys', 'blocklys/{ruleId}', 'blocklys/compile', 'blocklySetting']) {
      expect(documented).toContain(`/frontstage/v1/projects/{id}/rules/${p}`);
    }
  });

  it('deleting a project deletes its rules, programs and setting', async () => {
    const projectId = await project();
    await addRule(projectId);
    await addProgram(projectId);
    await server.api('PUT', rulePaths.blocklySetting(projectId), { token: vendor.token, body: { properties: [{ name: 'x', value: 1 }] } });
    expect((await server.api('DELETE', paths.project(projectId), { token: vendor.token })).status).toBe(204);
    expect(await rulesIn(projectId)).toEqual([]);
    expect(await server.ctx.db.select().from(projectBlocklyPrograms).where(eq(projectBlocklyPrograms.projectId, projectId))).toEqual([]);
    expect(await server.ctx.db.select().from(projectBlocklySettings).where(eq(projectBlocklySettings.projectId, projectId))).toEqual([]);
  });
});
