import type { TRuleCondition, TRuleValue, TValueTestOp } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { applyPending } from './device-state.js';
import { emptyDeviceValues, type TLatestPoint } from './device-values.js';
import { cmp, evaluate, mustCompile, num, programOf, tel, type TInputs } from './engine.fixtures.js';
import { truthName } from './truth.js';
import { valueContains, valuesEqual } from './value-tests.js';

const test = (key: string, op: TValueTestOp, value: TRuleValue | null = null): TRuleCondition => ({ type: 'value', key, op, value });
const run = (c: TRuleCondition, inputs: TInputs) => truthName(evaluate(mustCompile(programOf(c)), inputs));

describe('valuesEqual and valueContains', () => {
  it('equal: texts and booleans exactly, JSON structurally (members in any order, arrays in order)', () => {
    expect(valuesEqual('open', 'open')).toBe(true);
    expect(valuesEqual('open', 'Open')).toBe(false);
    expect(valuesEqual(true, 'true')).toBe(false);
    expect(valuesEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(valuesEqual([1, 2], [2, 1])).toBe(false);
    expect(valuesEqual({ a: 1 }, [1])).toBe(false);
    expect(valuesEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
  });

  it('contains: a substring; an element of an array; the members of an object; nothing in a boolean', () => {
    expect(valueContains('E42 overheat', 'overheat')).toBe(true);
    expect(valueContains('E42', 'e42')).toBe(false);
    expect(valueContains(['a', { x: 1 }, 3], { x: 1 })).toBe(true);
    expect(valueContains(['a', 3], '3')).toBe(false);
    expect(valueContains({ mode: 'auto', fan: 2 }, { mode: 'auto' })).toBe(true);
    expect(valueContains({ mode: 'auto', fan: 2 }, { mode: 'auto', fan: 3 })).toBe(false);
    expect(valueContains({ mode: 'auto' }, 'mode')).toBe(false);
    expect(valueContains(JSON.parse('{"__proto__": 1}'), JSON.parse('{"__proto__": 1}'))).toBe(true);
    expect(valueContains({}, JSON.parse('{"constructor": 1}'))).toBe(false);
    expect(valueContains(true, true)).toBe(false);
  });
});

describe('value conditions', () => {
  it('equals: true / false by the latest value; unknown while the key has none', () => {
    expect(run(test('door', 'equals', 'open'), { values: { door: { value: 'open' } } })).toBe('true');
    expect(run(test('door', 'equals', 'open'), { values: { door: { value: 'closed' } } })).toBe('false');
    expect(run(test('door', 'equals', 'open'), {})).toBe('unknown');
    expect(run(test('on', 'equals', false), { values: { on: { value: false } } })).toBe('true');
    expect(run(test('cfg', 'equals', { a: [1] }), { values: { cfg: { value: { a: [1] } } } })).toBe('true');
  });

  it('contains: string and JSON', () => {
    expect(run(test('msg', 'contains', 'err'), { values: { msg: { value: 'an error' } } })).toBe('true');
    expect(run(test('tags', 'contains', 'b'), { values: { tags: { value: ['a'] } } })).toBe('false');
  });

  it('changed: true only for a fresh point that differs from the one before; unknown without a previous value', () => {
    const c = test('door', 'changed');
    expect(run(c, { values: { door: { value: 'open', prev: 'closed' } } })).toBe('true');
    expect(run(c, { values: { door: { value: 'open', prev: 'open' } } })).toBe('false');
    expect(run(c, { values: { door: { value: 'open', prev: 'closed', fresh: false } } })).toBe('false');
    expect(run(c, { values: { door: { value: 'open' } } })).toBe('unknown');
    expect(run(test('cfg', 'changed'), { values: { cfg: { value: { a: 1, b: 2 }, prev: { b: 2, a: 1 } } } })).toBe('false');
  });

  it('a rule testing changed is momentary; one testing equals is not', () => {
    expect(mustCompile(programOf(test('door', 'changed'))).rules[0].momentary).toBe(true);
    expect(mustCompile(programOf(test('door', 'equals', 'open'))).rules[0].momentary).toBe(false);
  });

  it('mixes with numeric comparisons in Kleene logic, and a fresh point of the key triggers the rule', () => {
    const c: TRuleCondition = { type: 'and', conditions: [test('door', 'equals', 'open'), cmp(tel('t'), 'gt', num(30))] };
    expect(run(c, { values: { door: { value: 'open' } }, telemetry: { t: [31] } })).toBe('true');
    expect(run(c, { values: { door: { value: 'open' } } })).toBe('unknown');
    expect(mustCompile(programOf(c)).rules[0].keys).toEqual(new Set(['door', 't']));
  });
});

describe('the previous value changed compares with', () => {
  const point = (ts: number, value: string, prev?: string): TLatestPoint => ({
    ts,
    vs: [Number.NaN, Number.NaN, Number.NaN],
    value,
    ...(prev !== undefined && { prev }),
  });

  it('a fresh point takes the value held before it; one superseded in the same batch wins over that', () => {
    const values = emptyDeviceValues();
    values.telemetry.set('door', point(100, 'closed'));
    applyPending(values, { points: new Map([['door', point(200, 'open')]]), status: null }, false);
    expect(values.telemetry.get('door')?.prev).toBe('closed');
    applyPending(values, { points: new Map([['door', point(300, 'open', 'jammed')]]), status: null }, false);
    expect(values.telemetry.get('door')?.prev).toBe('jammed');
  });

  it('read back from the database with its own point: the previous one read with it', () => {
    const values = emptyDeviceValues();
    values.telemetry.set('door', point(100, 'open', 'closed'));
    applyPending(values, { points: new Map([['door', point(100, 'open')]]), status: null }, true);
    expect(values.telemetry.get('door')?.prev).toBe('closed');
  });
});
