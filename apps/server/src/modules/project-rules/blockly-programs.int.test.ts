import {
  BLOCKLY_BLOCKS_MAX,
  BLOCKLY_PROGRAMS_MAX,
  BLOCKLY_WORKSPACE_MAX_CHARS,
  rulePaths,
  type TBlocklyProgram,
  type TBlocklyProgramList,
  type TCompileResult,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { projectBlocklyPrograms } from '../../db/schema.js';
import { b, hotRule, type TRawBlock, workspace } from './compiler/workspace.fixtures.js';

const MODE = {
  name: 'Mode',
  index: 0,
  bytesLength: 2,
  values: [
    { value: 0, label: 'Idle' },
    { value: 2, label: 'Fault' },
  ],
};

describe(`blockly programs and compile (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
  });
  afterAll(() => server.stop());

  const project = async () =>
    (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 0, statusGroups: [MODE] })).projectId;
  const compile = async (projectId: number, ws: unknown) => {
    const res = await server.api<TCompileResult>('POST', rulePaths.compile(projectId), { token: vendor.token, body: { workspace: ws } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const codes = (r: TCompileResult) => r.errors.map((e) => [e.block_id, e.code]);
  const ruleWith = (cond: TRawBlock) => workspace(b.rule('r', cond, b.alert('a', 'early_warning', 'check')));

  describe('POST compile', () => {
    it('answers the typed program of a valid workspace against the project', async () => {
      const projectId = await project();
      const r = await compile(projectId, ruleWith(b.compare('c', b.status('s', 'Mode'), 'neq', b.label('l', 'Fault'))));
      expect(r).toEqual({
        ok: true,
        errors: [],
        program: {
          version: 1,
          rules: [
            {
              block_id: 'r',
              condition: { type: 'status', group: 'Mode', index: 0, length: 2, op: 'neq', value: 2, label: 'Fault' },
              actions: [{ type: 'alert', level: 'early_warning', message: 'check' }],
            },
          ],
        },
      });
    });

    it('reports errors block by block: unknown key for this project, missing input, status label vs number', async () => {
      const projectId = await project();
      // "pressure" is a sensor of another project of the same vendor, not of this one.
      await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 0, sensors: [{ key: 'pressure' }] });
      const r = await compile(
        projectId,
        workspace(
          b.rule('r1', b.compare('c1', b.telemetry('t1', 'pressure'), 'gt', b.number('n1', 1)), b.alert('a1', 'alert', 'x')),
          b.rule('r2', b.compare('c2', b.telemetry('t2', 'temperature'), 'gt', undefined), b.alert('a2', 'alert', 'x')),
          b.rule('r3', b.compare('c3', b.status('s3', 'Mode'), 'eq', b.number('n3', 2)), b.alert('a3', 'alert', 'x')),
        ),
      );
      expect(r.ok).toBe(false);
      expect(r.program).toBeNull();
      expect(codes(r)).toEqual([
        ['t1', 'unknown_key'],
        ['c2', 'missing_input'],
        ['c3', 'type_mismatch'],
      ]);
      expect(r.errors[0].message).toContain('pressure');
    });

    it('windows on the endpoint: 86 400 s compiles, 86 401 s is window_out_of_range', async () => {
      const projectId = await project();
      const held = (w: number) => ruleWith(b.held('h', b.compare('c', b.telemetry('t', 'humidity'), 'lt', b.number('n', 20)), w));
      expect((await compile(projectId, held(86_400))).ok).toBe(true);
      expect(codes(await compile(projectId, held(86_401)))).toEqual([['h', 'window_out_of_range']]);
    });

    it('properties come from the project’s blockly setting', async () => {
      const projectId = await project();
      const ws = ruleWith(b.compare('c', b.telemetry('t', 'current'), 'gt', b.property('p', 'max_current')));
      expect(codes(await compile(projectId, ws))).toEqual([['p', 'unknown_property']]);
      await server.api('PUT', rulePaths.blocklySetting(projectId), {
        token: vendor.token,
        body: { properties: [{ name: 'max_current', value: 16 }] },
      });
      expect((await compile(projectId, ws)).program?.rules[0].condition).toMatchObject({
        right: { type: 'property', name: 'max_current' },
      });
    });

    it(`${BLOCKLY_BLOCKS_MAX} blocks compile, one more is too_many_blocks`, async () => {
      const projectId = await project();
      const alerts = (n: number) => Array.from({ length: n }, (_, i) => b.alert(`a${i}`, 'remind', 'x'));
      // 20 rules of 10 blocks: rule, compare, telemetry, number and 6 alerts.
      const rules = Array.from({ length: 20 }, (_, i) =>
        b.rule(`r${i}`, b.compare(`c${i}`, b.telemetry(`t${i}`, 'temperature'), 'gt', b.number(`n${i}`, i)), ...alerts(6)),
      );
      expect((await compile(projectId, workspace(...rules))).ok).toBe(true);
      expect(codes(await compile(projectId, workspace(...rules, b.number('extra', 1))))).toEqual([[null, 'too_many_blocks']]);
    });

    it(`workspace JSON: ${BLOCKLY_WORKSPACE_MAX_CHARS} characters are read, one more is 400; deep nesting is 400, never 500`, async () => {
      const projectId = await project();
      const sized = (chars: number) => {
        const base = { blocks: { languageVersion: 0, blocks: [hotRule()] }, pad: '' };
        return { ...base, pad: 'x'.repeat(chars - JSON.stringify(base).length) };
      };
      expect((await compile(projectId, sized(BLOCKLY_WORKSPACE_MAX_CHARS))).ok).toBe(true);
      const over = await server.api<{ code: string }>('POST', rulePaths.compile(projectId), {
        token: vendor.token,
        body: { workspace: sized(BLOCKLY_WORKSPACE_MAX_CHARS + 1) },
      });
      expect(over).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
      const deep = `{"workspace":{"blocks":{"blocks":[${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}]}}}`;
      const res = await server.api('POST', rulePaths.compile(projectId), {
        token: vendor.token,
        body: deep,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
    });
  });

  describe('programs', () => {
    const save = (projectId: number, body: object) =>
      server.api<TBlocklyProgram & { code?: string }>('POST', rulePaths.blocklys(projectId), { token: vendor.token, body });
    const put = (projectId: number, id: number, body: object) =>
      server.api<TBlocklyProgram & { code?: string }>('PUT', rulePaths.blockly(projectId, id), { token: vendor.token, body });

    it('saving stores the workspace with its errors; fixing it stores the program; GET answers what was saved', async () => {
      const projectId = await project();
      const broken = workspace(b.rule('r', b.compare('c', b.telemetry('t', 'temperature'), 'gt', undefined), b.alert('a', 'alert', 'hot')));
      const draft = await save(projectId, { name: 'Cooling', workspace: { ...broken, variables: [] } });
      expect(draft.status).toBe(201);
      expect(draft.body).toMatchObject({ name: 'Cooling', enabled: true, ok: false, error_count: 1, program: null });
      expect(draft.body.errors).toEqual([{ block_id: 'c', code: 'missing_input', message: 'input B is empty' }]);
      const list = await server.api<TBlocklyProgramList>('GET', rulePaths.blocklys(projectId), { token: vendor.token });
      expect(list.body).toMatchObject({ total_items: 1, data: [{ id: draft.body.id, ok: false, error_count: 1 }] });
      expect(list.body.data[0]).not.toHaveProperty('workspace');

      const fixed = await put(projectId, draft.body.id, { workspace: workspace(hotRule()), enabled: false });
      expect(fixed.body).toMatchObject({ ok: true, error_count: 0, errors: [], enabled: false, name: 'Cooling' });
      expect(fixed.body.program?.rules).toHaveLength(1);
      const got = await server.api<TBlocklyProgram>('GET', rulePaths.blockly(projectId, draft.body.id), { token: vendor.token });
      expect(got.body.workspace).toEqual(workspace(hotRule()));
      expect(got.body.program).toEqual(fixed.body.program);
    });

    it('a PUT without a workspace compiles the stored one against the project as it is now', async () => {
      const projectId = await project();
      const setting = (properties: object[]) =>
        server.api('PUT', rulePaths.blocklySetting(projectId), { token: vendor.token, body: { properties } });
      await setting([{ name: 'limit', value: 30 }]);
      const ws = workspace(
        b.rule('r', b.compare('c', b.telemetry('t', 'temperature'), 'gt', b.property('p', 'limit')), b.alert('a', 'alert', 'x')),
      );
      const created = await save(projectId, { name: 'Uses limit', workspace: ws });
      expect(created.body.ok).toBe(true);
      await setting([]);
      const renamed = await put(projectId, created.body.id, { name: 'Renamed' });
      expect(renamed.body).toMatchObject({ name: 'Renamed', ok: false, errors: [{ block_id: 'p', code: 'unknown_property' }] });
      expect(renamed.body.workspace).toEqual(ws);
    });

    it('names: 32 characters are saved, 33 or blank are 400 and nothing is written', async () => {
      const projectId = await project();
      for (const name of ['n'.repeat(33), '  ']) {
        expect((await save(projectId, { name, workspace: {} })).status).toBe(400);
      }
      const ok = await save(projectId, { name: 'n'.repeat(32), workspace: {} });
      expect(ok.status).toBe(201);
      expect((await put(projectId, ok.body.id, { name: 'm'.repeat(33) })).status).toBe(400);
      const list = await server.api<TBlocklyProgramList>('GET', rulePaths.blocklys(projectId), { token: vendor.token });
      expect(list.body.data.map((p) => p.name)).toEqual(['n'.repeat(32)]);
    });

    it('names are unique per project (409); deleting removes the program', async () => {
      const projectId = await project();
      const first = await save(projectId, { name: 'One', workspace: {} });
      expect(first.body).toMatchObject({ ok: false, errors: [{ block_id: null, code: 'no_rules' }] });
      expect((await save(projectId, { name: 'One', workspace: {} })).body.code).toBe('RULE_NAME_TAKEN');
      const second = await save(projectId, { name: 'Two', workspace: {} });
      expect((await put(projectId, second.body.id, { name: 'One' })).status).toBe(409);
      expect((await server.api('DELETE', rulePaths.blockly(projectId, first.body.id), { token: vendor.token })).status).toBe(204);
      expect((await server.api('GET', rulePaths.blockly(projectId, first.body.id), { token: vendor.token })).status).toBe(404);
    });

    it(`at most ${BLOCKLY_PROGRAMS_MAX} programs per project: the ${BLOCKLY_PROGRAMS_MAX}th is saved, the next is 409`, async () => {
      const projectId = await project();
      await server.ctx.db.insert(projectBlocklyPrograms).values(
        Array.from({ length: BLOCKLY_PROGRAMS_MAX - 1 }, (_, i) => ({
          projectId,
          name: `p${i}`,
          enabled: true,
          workspace: {},
          program: null,
          errors: [],
          compiledAt: 0,
          updatedAt: 0,
        })),
      );
      expect((await save(projectId, { name: 'last', workspace: {} })).status).toBe(201);
      const over = await save(projectId, { name: 'over', workspace: {} });
      expect(over).toMatchObject({ status: 409, body: { code: 'RULES_LIMIT_REACHED' } });
    });
  });
});
