import { type TFlowGraphInput, ZFlowGraph } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { compileFlow } from './compile-flow.js';
import { compileExpression, compileTemplate, FlowRunError, type TFlowValue } from './expression.js';
import { DEVICE, fakeEffects } from './flow.fixtures.js';
import { runFlow } from './run-flow.js';
import { castTo } from './variables.js';

const scopeOf = (vars: Record<string, TFlowValue>) => ({ get: (n: string) => vars[n], now: () => 1_000 });
const evalText = (text: string, vars: Record<string, TFlowValue> = {}) =>
  compileExpression(text, new Set(Object.keys(vars)))(scopeOf(vars));

describe('expressions on values that are not numbers', () => {
  it('equals: == and != on texts and booleans, structurally on JSON (json("…") writes one)', () => {
    expect(evalText('value == "open"', { value: 'open' })).toBe(true);
    expect(evalText('value == true', { value: false })).toBe(false);
    expect(evalText('value == json(\'{"b":[1,2],"a":1}\')', { value: { a: 1, b: [1, 2] } })).toBe(true);
    expect(evalText('value != json("[2,1]")', { value: [1, 2] })).toBe(true);
    expect(() => evalText('value == "{}"', { value: {} })).toThrow(/compares a JSON value with a string/);
    expect(() => evalText('value < json("[1]")', { value: [1] })).toThrow(FlowRunError);
    expect(() => evalText('json("{nope")')).toThrow(/not JSON/);
  });

  it('contains: a substring, an array element, an object’s members', () => {
    expect(evalText('contains(value, "E4")', { value: 'E42 overheat' })).toBe(true);
    expect(evalText('contains(value, "b")', { value: ['a', 'b'] })).toBe(true);
    expect(evalText('contains(value, 3)', { value: ['3'] })).toBe(false);
    expect(evalText('contains(value, json(\'{"mode":"auto"}\'))', { value: { mode: 'auto', fan: 2 } })).toBe(true);
    expect(() => evalText('contains(value, "x")', { value: true })).toThrow(/contains needs two texts/);
  });

  it('templates and string variables write JSON compact', () => {
    expect(compileTemplate('cfg {{value}}', new Set(['value']))(scopeOf({ value: { a: [1] } }))).toBe('cfg {"a":[1]}');
    expect(castTo('string', { a: 1 })).toBe('{"a":1}');
    expect(() => castTo('float', [1])).toThrow(FlowRunError);
  });
});

const doorRule: TFlowGraphInput = {
  nodes: [
    {
      id: 'n1',
      type: 'start',
      position: { x: 0, y: 0 },
      data: { trigger: { kind: 'telemetry', scope: { kind: 'projects', ids: [1] }, keys: ['door'] } },
    },
    { id: 'n2', type: 'condition', position: { x: 0, y: 0 }, data: { expression: 'changed() && value == "open"' } },
    { id: 'n3', type: 'conditionResult', position: { x: 0, y: 0 }, data: { result: true } },
    { id: 'n4', type: 'alert', position: { x: 0, y: 0 }, data: { level: 'alert', message: 'door {{value}}' } },
  ],
  edges: [
    { id: 'e1', source: 'n1', target: 'n2' },
    { id: 'e2', source: 'n2', target: 'n3' },
    { id: 'e3', source: 'n3', target: 'n4' },
  ],
};

function compiled(input: TFlowGraphInput) {
  const r = compileFlow(ZFlowGraph.parse(input));
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.flow;
}

describe('changed() in runs', () => {
  const trigger = { device: DEVICE, key: 'door', ts: 5_000, value: 'open' };

  it('true when the trigger’s value differs from the device’s previous one: the alert is raised', async () => {
    const fx = fakeEffects('closed');
    const r = await runFlow(compiled(doorRule), trigger, fx, () => 9_000);
    expect(r.outcome).toBe('ok');
    expect(fx.calls).toEqual(['previousValue door', 'alert alert door open']);
    expect(r.steps[0]?.variables).toMatchObject({ value: 'open', key: 'door' });
  });

  it('false when it is the same value, and when there is no previous point', async () => {
    for (const previous of ['open', null]) {
      const fx = fakeEffects(previous);
      const r = await runFlow(compiled(doorRule), trigger, fx, () => 9_000);
      expect(r.steps.map((s) => s.output)).toEqual([null, false]);
      expect(fx.calls).toEqual(['previousValue door']);
    }
  });

  it('a run error when the trigger’s value is a number; a rule without changed() reads no previous value', async () => {
    const r = await runFlow(compiled(doorRule), { device: DEVICE, key: 'door', ts: 5_000, values: [1] }, fakeEffects('x'), () => 9_000);
    expect(r.error).toMatch(/changed\(\) needs a trigger whose value is a text/);
    const plain = structuredClone(doorRule);
    plain.nodes[1] = { id: 'n2', type: 'condition', position: { x: 0, y: 0 }, data: { expression: 'value == "open"' } };
    const fx = fakeEffects('closed');
    await runFlow(compiled(plain), trigger, fx, () => 9_000);
    expect(fx.calls).toEqual(['alert alert door open']);
  });
});
