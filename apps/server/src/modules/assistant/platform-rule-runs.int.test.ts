/**
 * The assistant's `platform_rule_runs` tool (docs/decisions/ai.md "Tools") against the fake OpenAI-compatible endpoint:
 * a vendor's rule runs with their traces cut to the bounds, another tenant's rule answered as a missing one, and users
 * refused (the run and trace routes are vendor-only).
 */
import { ErrorCode, platformRulePaths, type TFlowGraphInput, type TPlatformRule } from '@tessera/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildAccount, type TBuiltAccount } from '../../../test/factories.js';
import { startFakeOpenAi, type TFakeOpenAi } from '../../../test/fake-openai.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { askVia, withAi } from './assistant.fixtures.js';
import { RULE_RUNS_DEFAULT, RUN_STEPS_MAX, TOOL_VALUE_CHARS_MAX } from './platform-rule-runs.js';

/** A platform rule started by hand (start → `nodes` in a chain); every node a variable of `[name, type, expression]`. */
function manualFlow(variables: [string, 'string' | 'int', string][]): TFlowGraphInput {
  const at = { x: 0, y: 0 };
  const nodes: TFlowGraphInput['nodes'] = [
    { id: 'n1', type: 'start', position: at, data: { trigger: { kind: 'manual' } } },
    ...variables.map(([name, var_type, expression], i) => ({
      id: `n${i + 2}`,
      type: 'variable' as const,
      position: at,
      data: { name, var_type, expression },
    })),
  ];
  return { nodes, edges: nodes.slice(1).map((n, i) => ({ id: `e${i + 1}`, source: `n${i + 1}`, target: n.id })) };
}

describe(`assistant tool platform_rule_runs (${TEST_DB_KIND})`, () => {
  let fake: TFakeOpenAi;
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let other: TBuiltAccount;

  const ask = (who: TBuiltAccount, content: string) => askVia(server, who.token, content);

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    server = await startTestServer({
      ai: { baseUrl: fake.url, apiKey: fake.apiKey, model: fake.model, dailyRequests: 1000, dailyTokens: 10_000_000 },
    });
    vendor = await buildAccount(server, { level: 'vendor', fea: withAi('vendor') });
    user = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId, fea: withAi('user') });
    other = await buildAccount(server, { level: 'vendor', fea: withAi('vendor') });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.stop();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.script();
  });

  it('reads a vendor’s rule runs with a trace cut to the bounds; another tenant’s rule is NOT_FOUND; users are refused', async () => {
    const call = async <T>(method: 'POST' | 'PUT', url: string, token: string, body?: unknown) => {
      const res = await server.api<T>(method, url, { token, body });
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body;
    };
    const long = 'x'.repeat(300);
    // 13 steps per ok run (over RUN_STEPS_MAX), one output longer than TOOL_VALUE_CHARS_MAX.
    const counters = Array.from({ length: 11 }, (_, i): [string, 'int', string] => [`c${i}`, 'int', String(i)]);
    const rule = await call<TPlatformRule>('POST', platformRulePaths.rules, vendor.token, {
      name: 'Runs probe',
      draft: manualFlow([['note', 'string', `"${long}"`], ...counters]),
    });
    await call('POST', platformRulePaths.action(rule.id, 'apply'), vendor.token);
    await call('POST', platformRulePaths.action(rule.id, 'run'), vendor.token);
    await call('POST', platformRulePaths.action(rule.id, 'run'), vendor.token);
    await call('PUT', platformRulePaths.rule(rule.id), vendor.token, { name: 'Runs probe', draft: manualFlow([['big', 'int', 'now()']]) });
    await call('POST', platformRulePaths.action(rule.id, 'apply'), vendor.token);
    await call('POST', platformRulePaths.action(rule.id, 'run'), vendor.token);
    const theirs = await call<TPlatformRule>('POST', platformRulePaths.rules, other.token, { name: 'Their secret rule' });

    fake.script(
      {
        toolCalls: [
          { name: 'platform_rule_runs', arguments: { rule_id: rule.id } },
          { name: 'platform_rule_runs', arguments: { rule_id: rule.id, limit: 1, failed_only: true } },
          { name: 'platform_rule_runs', arguments: { rule_id: theirs.id } },
          { name: 'platform_rule_runs', arguments: { rule_id: 2_000_000_000 } },
          { name: 'platform_rule_runs', arguments: { rule_id: rule.id, limit: 11 } },
        ],
      },
      { text: 'The newest run failed.' },
    );
    const { events } = await ask(vendor, 'why did Runs probe fail?');
    const ruleRef = { kind: 'rule', label: 'Runs probe', path: `/platform_rule/detail/${rule.id}` };
    expect(events.flatMap((e) => (e.event === 'tool' ? [e.data.references] : []))).toEqual([[ruleRef], [ruleRef], [], [], []]);
    const tools = fake.bodies()[1].messages.filter((m) => m.role === 'tool');
    const [recent, failed, foreign, missing, tooMany] = tools.map((m) => JSON.parse(m.content ?? '').data);

    expect(recent.rule).toEqual({ id: rule.id, name: 'Runs probe', status: 'good' });
    expect(recent.total_runs).toBe(3);
    expect(recent.runs.map((r: { outcome: string }) => r.outcome)).toEqual(['error', 'ok', 'ok']);
    expect(recent.runs.length).toBeLessThanOrEqual(RULE_RUNS_DEFAULT);
    const [broken, fine] = recent.runs;
    expect(broken).toMatchObject({ outcome: 'error', error: expect.stringMatching(/overflows int/), version: 2, trigger: {} });
    expect(broken.finished_at).toBeGreaterThanOrEqual(broken.started_at);
    expect(broken.steps).toEqual([
      { node_id: 'n1', node_type: 'start', outcome: 'ok' },
      { node_id: 'n2', node_type: 'variable', outcome: 'error', error: expect.stringMatching(/overflows int/) },
    ]);
    expect(broken.steps_omitted).toBeUndefined();
    expect(fine).toMatchObject({ outcome: 'ok', version: 1, steps_total: 13, steps_omitted: 13 - RUN_STEPS_MAX });
    expect(fine.error).toBeUndefined();
    expect(fine.steps.map((st: { node_id: string }) => st.node_id)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9', 'n13']);
    expect(fine.steps[1].output).toBe(`${long.slice(0, TOOL_VALUE_CHARS_MAX)}… (+${300 - TOOL_VALUE_CHARS_MAX} chars)`);
    for (const run of recent.runs) {
      expect(run.steps.length).toBeLessThanOrEqual(RUN_STEPS_MAX);
      for (const st of run.steps) expect(JSON.stringify(st.output ?? null).length).toBeLessThanOrEqual(TOOL_VALUE_CHARS_MAX + 20);
    }
    expect(JSON.stringify(recent)).not.toContain(long);

    expect(failed).toMatchObject({ total_runs: 3, scanned: 3 });
    expect(failed.runs.map((r: { id: number }) => r.id)).toEqual([broken.id]);
    expect([foreign.error.code, missing.error.code]).toEqual(['NOT_FOUND', 'NOT_FOUND']);
    expect(foreign).toEqual({ error: { code: 'NOT_FOUND', message: missing.error.message } });
    expect(JSON.stringify(tools)).not.toContain('Their secret rule');
    expect(tooMany.error.code).toBe(ErrorCode.Validation);

    // The run and trace routes are vendor-only, so a user is refused with the platform-rule section (11) or without.
    const sectionUser = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId, fea: [...withAi('user'), '11'] });
    for (const asker of [user, sectionUser]) {
      fake.requests.length = 0;
      fake.script({ toolCalls: [{ name: 'platform_rule_runs', arguments: { rule_id: rule.id } }] }, { text: 'No.' });
      await ask(asker, 'runs?');
      const [denied] = fake
        .bodies()[1]
        .messages.filter((m) => m.role === 'tool')
        .map((m) => JSON.parse(m.content ?? '').data);
      expect(denied).toEqual({ error: { code: 'FORBIDDEN', message: expect.any(String) } });
    }
  });
});
