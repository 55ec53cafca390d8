import { type TFlowGraphInput, ZFlowGraph, ZFlowNodeData, flowProblems, variablesAfter } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { compileFlow } from './compile-flow.js';
import { type TFlowEffectRecord, recordingEffects } from './effects.js';
import { DEVICE, fakeEffects } from './flow.fixtures.js';
import { FlowCompileError, FlowRunError, compileExpression, compileTemplate, type TFlowValue } from './expression.js';
import { runFlow } from './run-flow.js';
import { castTo } from './variables.js';

const scopeOf = (vars: Record<string, TFlowValue>) => ({ get: (n: string) => vars[n], now: () => 1_000 });
const evalText = (text: string, vars: Record<string, TFlowValue> = {}) =>
  compileExpression(text, new Set(Object.keys(vars)))(scopeOf(vars));

describe('expressions', () => {
  it('compute with numbers, texts, booleans, functions and the ternary', () => {
    expect(evalText('value * 2 + 1', { value: 20 })).toBe(41);
    expect(evalText('(a + b) / 2 >= 10 && !off', { a: 9, b: 12, off: false })).toBe(true);
    expect(evalText('name + "-1"', { name: 'pump' })).toBe('pump-1');
    expect(evalText('max(a, 3, 7) - min(2, a)', { a: 5 })).toBe(5);
    expect(evalText('round(3.14159, 2)')).toBe(3.14);
    expect(evalText('a > 1 ? "hot" : "cold"', { a: 2 })).toBe('hot');
    expect(evalText('contains(s, "err")', { s: 'an error' })).toBe(true);
    expect(evalText('now()')).toBe(1_000);
  });

  it('refuse types that do not fit instead of coercing them', () => {
    expect(() => evalText('1 + s', { s: 'a' })).toThrow(FlowRunError);
    expect(() => evalText('!n', { n: 3 })).toThrow(/true or false/);
    expect(() => evalText('s < 2', { s: 'a' })).toThrow(FlowRunError);
    expect(() => evalText('n / 0', { n: 1 })).toThrow(/division by zero/);
    expect(() => evalText('pow(10, 400)')).toThrow(/infinite/);
    expect(() => evalText('missing', { missing: undefined as unknown as number })).toThrow(/no value yet/);
  });

  it('refuse escape attempts and constructs outside the language at compile time', () => {
    const known = new Set(['value']);
    for (const text of [
      "constructor.constructor('return process')()",
      'value.constructor',
      'value["__proto__"]',
      '__proto__',
      'this',
      '[1, 2]',
      'process.exit(1)',
      'eval("1")',
      'Function("return 1")()',
      'value = 3',
      'a; b',
      `${'1 + ('.repeat(40)}1${')'.repeat(40)}`,
      `${'-'.repeat(40).split('').join(' ')} 1`,
      '1 +',
    ]) {
      expect(() => compileExpression(text, known), text).toThrow(FlowCompileError);
    }
    expect((globalThis as { __flowPwned?: boolean }).__flowPwned).toBeUndefined();
  });

  it('refuse huge input before parsing: an expression over 500 characters, a text over 1,000, a graph over 200 nodes', () => {
    expect(ZFlowNodeData.condition.safeParse({ expression: `${'1 + '.repeat(130)}1` }).success).toBe(false);
    expect(() => evalText(`"${'x'.repeat(600)}" + s`, { s: 'y'.repeat(600) })).toThrow(/longer than 1000/);
    const start = { id: 'n1', type: 'start', position: { x: 0, y: 0 }, data: { trigger: { kind: 'manual' } } };
    const many = Array.from({ length: 200 }, (_, i) => ({ ...start, id: `n${i + 2}`, type: 'conditionResult', data: { result: true } }));
    expect(ZFlowGraph.safeParse({ nodes: [start, ...many], edges: [] }).success).toBe(false);
  });

  it('fill templates with values and refuse unknown names', () => {
    expect(compileTemplate('{{key}} is {{ value }}', new Set(['key', 'value']))(scopeOf({ key: 't', value: 3 }))).toBe('t is 3');
    expect(() => compileTemplate('{{nope}}', new Set())).toThrow(/unknown name nope/);
  });
});

describe('variable casts', () => {
  it('overflow and bad casts are errors, never a wrap', () => {
    expect(castTo('int', 2 ** 31 - 1)).toBe(2 ** 31 - 1);
    expect(() => castTo('int', 2 ** 31)).toThrow(/overflows int/);
    expect(() => castTo('uint', -1)).toThrow(/overflows uint/);
    expect(() => castTo('int', 1.5)).toThrow(/whole number/);
    expect(castTo('int', '42')).toBe(42);
    expect(() => castTo('float', 'abc')).toThrow(FlowRunError);
    expect(castTo('boolean', 'true')).toBe(true);
    expect(() => castTo('boolean', 1)).toThrow(FlowRunError);
    expect(castTo('string', 3)).toBe('3');
    expect(() => castTo('time', -5)).toThrow(/overflows time/);
  });
});

const overheating: TFlowGraphInput = {
  nodes: [
    {
      id: 'n1',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { trigger: { kind: 'telemetry', scope: { kind: 'projects', ids: [1] }, keys: ['temp'] } },
    },
    {
      id: 'n2',
      type: 'aggregation',
      position: { x: 0, y: 0 },
      data: { name: 'avg10', fn: 'avg', key: 'temp', amount: 10, unit: 'minute' },
    },
    { id: 'n3', type: 'condition', position: { x: 0, y: 0 }, data: { expression: 'value > 30 && avg10 > 20' } },
    { id: 'n4', type: 'conditionResult', position: { x: 0, y: 0 }, data: { result: true } },
    { id: 'n5', type: 'alert', position: { x: 0, y: 0 }, data: { level: 'alert', message: '{{tangramId}} at {{value}}' } },
    { id: 'n6', type: 'notification', position: { x: 0, y: 0 }, data: { email: true, message: 'hot: {{value}}' } },
    { id: 'n7', type: 'conditionResult', position: { x: 0, y: 0 }, data: { result: false } },
    { id: 'n8', type: 'variable', position: { x: 0, y: 0 }, data: { name: 'calm', var_type: 'boolean', expression: 'true' } },
  ],
  edges: [
    { id: 'e1', source: 'n1', target: 'n2' },
    { id: 'e2', source: 'n2', target: 'n3' },
    { id: 'e3', source: 'n3', target: 'n4' },
    { id: 'e4', source: 'n4', target: 'n5' },
    { id: 'e5', source: 'n5', target: 'n6' },
    { id: 'e6', source: 'n3', target: 'n7' },
    { id: 'e7', source: 'n7', target: 'n8' },
  ],
};

function compiled(input: TFlowGraphInput) {
  const r = compileFlow(ZFlowGraph.parse(input));
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.flow;
}

describe('flow runs', () => {
  it('follow the true branch, raise the alert, notify about it, and trace every node visited', async () => {
    const fx = fakeEffects();
    const r = await runFlow(compiled(overheating), { device: DEVICE, key: 'temp', ts: 5, values: [35] }, fx, () => 1_000);
    expect(r.outcome).toBe('ok');
    expect(r.steps.map((s) => s.node_id)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
    expect(fx.calls).toEqual(['aggregate avg temp', 'alert alert T1 at 35', 'notify hot: 35 alert=11 opened=true']);
    expect(r.steps[2]?.output).toBe(true);
    expect(r.steps[0]?.variables).toEqual({ value: 35, key: 'temp', ts: 5, tangramId: 'T1' });
    expect(r.steps[1]?.variables).toEqual({ avg10: 25 });
    expect(variablesAfter(r.steps, 1)).toMatchObject({ avg10: 25, value: 35 });
  });

  it('follow the false branch when the condition is false', async () => {
    const fx = fakeEffects();
    const r = await runFlow(compiled(overheating), { device: DEVICE, key: 'temp', ts: 5, values: [10] }, fx, () => 1_000);
    expect(r.steps.map((s) => s.node_id)).toEqual(['n1', 'n2', 'n3', 'n7', 'n8']);
    expect(fx.calls).toEqual(['aggregate avg temp']);
  });

  it('aggregate a platform telemetry’s series into a variable the condition reads, on any trigger', async () => {
    const graph = structuredClone(overheating);
    graph.nodes[0] = { id: 'n1', type: 'start', position: { x: 0, y: 0 }, data: { trigger: { kind: 'manual' } } };
    graph.nodes[1] = {
      id: 'n2',
      type: 'aggregation',
      position: { x: 0, y: 0 },
      data: { name: 'power', fn: 'max', source: 'platform', platform_telemetry_id: 7, amount: 15, unit: 'minute' },
    };
    (graph.nodes[2] as { data: { expression: string } }).data.expression = 'power > 1';
    graph.nodes = graph.nodes.filter((n) => n.type !== 'alert' && n.type !== 'notification');
    graph.edges = graph.edges.filter((e) => e.target !== 'n5' && e.target !== 'n6');
    const fx = fakeEffects();
    const r = await runFlow(compiled(graph), { device: null }, fx, () => 1_000_000);
    expect(r.outcome).toBe('ok');
    expect(fx.calls).toEqual(['aggregatePlatform max 7']);
    expect(r.steps[1]).toMatchObject({ output: 1.32, input: { platform_telemetry_id: 7, fn: 'max', from: 100_000, to: 1_000_000 } });
    expect(r.steps.map((s) => s.node_id)).toEqual(['n1', 'n2', 'n3', 'n4']);
    // Another tenant's (or a deleted) platform telemetry stops the run on that node, with the reason.
    (graph.nodes[1] as { data: { platform_telemetry_id: number } }).data.platform_telemetry_id = 8;
    const lost = await runFlow(compiled(graph), { device: null }, fakeEffects(), () => 1_000_000);
    expect(lost.steps.at(-1)).toMatchObject({ node_id: 'n2', error: "platform telemetry 8 is not one of this tenant's" });
    // A platform source needs its platform telemetry; a device source its key.
    expect(ZFlowNodeData.aggregation.safeParse({ name: 'p', fn: 'avg', source: 'platform', amount: 1, unit: 'hour' }).success).toBe(false);
    expect(ZFlowNodeData.aggregation.safeParse({ name: 'p', fn: 'avg', amount: 1, unit: 'hour' }).success).toBe(false);
  });

  it('stop at the first run error and name it on its node', async () => {
    const graph = structuredClone(overheating);
    graph.nodes[7] = {
      id: 'n8',
      type: 'variable',
      position: { x: 0, y: 0 },
      data: { name: 'big', var_type: 'int', expression: 'value * 1000000000' },
    };
    const r = await runFlow(compiled(graph), { device: DEVICE, key: 'temp', ts: 5, values: [10] }, fakeEffects(), () => 1_000);
    expect(r.outcome).toBe('error');
    expect(r.steps.at(-1)).toMatchObject({ node_id: 'n8', error: expect.stringMatching(/overflows int/) });
  });

  it('replay with recording effects sends nothing and records the alert and the notification', async () => {
    const fx = fakeEffects();
    const records: TFlowEffectRecord[] = [];
    const r = await runFlow(
      compiled(overheating),
      { device: DEVICE, key: 'temp', ts: 5, values: [35] },
      recordingEffects(fx, records),
      () => 1_000,
    );
    expect(r.outcome).toBe('ok');
    expect(fx.calls).toEqual(['aggregate avg temp']);
    expect(records.map((x) => `${x.node_id} ${x.kind}`)).toEqual(['n5 alert', 'n6 notification']);
  });

  it('give compile problems on their nodes: a bad expression, an unknown name, a bad cron', () => {
    const graph = structuredClone(overheating);
    (graph.nodes[2] as { data: { expression: string } }).data.expression = 'value >';
    (graph.nodes[5] as { data: { message: string } }).data.message = '{{ghost}}';
    const r = compileFlow(ZFlowGraph.parse(graph));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.node_id)).toEqual(['n3', 'n6']);
    const scheduled = ZFlowGraph.parse({
      nodes: [{ id: 'n1', type: 'start', position: { x: 0, y: 0 }, data: { trigger: { kind: 'schedule', cron: '61 * * * *' } } }],
      edges: [],
    });
    const s = compileFlow(scheduled);
    expect(s.ok ? [] : s.problems.map((p) => p.node_id)).toEqual(['n1']);
  });

  it('refuse an alert when the trigger has no device', () => {
    const g = ZFlowGraph.parse({
      nodes: [
        { id: 'n1', type: 'start', position: { x: 0, y: 0 }, data: { trigger: { kind: 'manual' } } },
        { id: 'n2', type: 'alert', position: { x: 0, y: 0 }, data: { level: 'remind', message: 'x' } },
      ],
      edges: [{ id: 'e', source: 'n1', target: 'n2' }],
    });
    const r = compileFlow(g);
    expect(r.ok ? [] : r.problems.map((p) => p.node_id)).toEqual(['n2']);
  });

  it('command many devices in parallel and collect each result', async () => {
    const fx = fakeEffects();
    const g = {
      nodes: [
        { id: 'n1', type: 'start', position: { x: 0, y: 0 }, data: { trigger: { kind: 'manual' } } },
        {
          id: 'n2',
          type: 'deviceParallelControl',
          position: { x: 0, y: 0 },
          data: { scope: { kind: 'projects', ids: [1] }, command: { name: 'getDeviceInfo' }, concurrency: 2, result_variable: 'allOk' },
        },
      ],
      edges: [{ id: 'e', source: 'n1', target: 'n2' }],
    } satisfies TFlowGraphInput;
    const r = await runFlow(compiled(g), { device: null }, fx, () => 1_000);
    expect(r.steps[1]?.output).toMatchObject({ ok: true, sent: 2, failed: 0 });
    expect(r.steps[1]?.variables).toMatchObject({ allOk: true });
    expect(fx.calls.sort()).toEqual(['command T1', 'command T2']);
  });
});

describe('graph rules (contracts flowProblems)', () => {
  it('find a cycle, an unreachable node, a second true branch and a variable declared twice', () => {
    const g = ZFlowGraph.safeParse({
      ...overheating,
      nodes: [
        ...overheating.nodes,
        { id: 'n9', type: 'variable', position: { x: 0, y: 0 }, data: { name: 'calm', var_type: 'int', expression: '1' } },
      ],
      edges: [...overheating.edges, { id: 'x', source: 'n6', target: 'n2' }],
    });
    expect(g.success).toBe(false);
    const messages = g.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toEqual(
      expect.arrayContaining(['the flow loops back on itself', 'not reachable from start', 'variable calm is declared twice']),
    );
    expect(flowProblems({ nodes: [], edges: [] })).toEqual([
      { node_id: null, code: 'start_count', message: 'a rule has exactly one start node' },
    ]);
  });
});
