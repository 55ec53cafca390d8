import { describe, expect, it } from 'vitest';
import {
  BLOCKLY_PROPERTIES_MAX,
  BLOCKLY_WORKSPACE_MAX_CHARS,
  RULE_ACTIONS_MAX,
  RULE_MESSAGE_MAX,
  RULE_PROPERTY_NAME_MAX,
  RULE_WINDOW_MIN_S,
  RULE_WINDOW_MAX_S,
  RULES_PER_PROGRAM_MAX,
  simpleRuleToProgram,
  type TRuleAction,
  type TRuleCondition,
  ZBlocklyProgramInput,
  ZBlocklySetting,
  ZBlocklyWorkspace,
  ZCompileRequest,
  ZRuleProgram,
  ZSimpleRuleInput,
  ZSimpleRuleUpdate,
} from './rules.js';

const rule = { name: 'Overheat', key: 'temperature', op: 'gt', threshold: 30, level: 'alert', message: 'Too hot' };
const simpleOk = (extra: Record<string, unknown>) => ZSimpleRuleInput.safeParse({ ...rule, ...extra }).success;

describe('ZSimpleRuleInput', () => {
  it('defaults: enabled, slot v1, at once, no notifications', () => {
    expect(ZSimpleRuleInput.parse(rule)).toMatchObject({
      enabled: true,
      slot: 'v1',
      duration_s: 0,
      notify_email: false,
      notify_line: false,
    });
  });
  it('name 1–32 characters (trimmed)', () => {
    expect([rule.name, 'n'.repeat(32)].map((name) => simpleOk({ name }))).toEqual([true, true]);
    expect(['n'.repeat(33), '', '   '].map((name) => simpleOk({ name }))).toEqual([false, false, false]);
  });
  it('duration 0–86 400 whole seconds', () => {
    expect([0, 1, RULE_WINDOW_MAX_S].map((duration_s) => simpleOk({ duration_s }))).toEqual([true, true, true]);
    expect([-1, RULE_WINDOW_MAX_S + 1, 1.5].map((duration_s) => simpleOk({ duration_s }))).toEqual([false, false, false]);
  });
  it('message 1–200 characters', () => {
    expect(simpleOk({ message: 'm'.repeat(RULE_MESSAGE_MAX) })).toBe(true);
    expect(simpleOk({ message: 'm'.repeat(RULE_MESSAGE_MAX + 1) })).toBe(false);
    expect(simpleOk({ message: ' ' })).toBe(false);
  });
  it('slot v1–v3, the six operators, the three alert levels, a finite threshold, a telemetry key', () => {
    expect(['v1', 'v3'].map((slot) => simpleOk({ slot }))).toEqual([true, true]);
    expect(simpleOk({ slot: 'v4' })).toBe(false);
    expect(['gt', 'gte', 'lt', 'lte', 'eq', 'neq'].every((op) => simpleOk({ op }))).toBe(true);
    expect(simpleOk({ op: '>' })).toBe(false);
    expect(['remind', 'early_warning', 'alert'].every((level) => simpleOk({ level }))).toBe(true);
    expect(simpleOk({ level: 'critical' })).toBe(false);
    expect([Number.POSITIVE_INFINITY, Number.NaN, '30'].map((threshold) => simpleOk({ threshold }))).toEqual([false, false, false]);
    expect(simpleOk({ key: 'k'.repeat(32) })).toBe(true);
    expect(simpleOk({ key: 'k'.repeat(33) })).toBe(false);
    expect(simpleOk({ key: 'has space' })).toBe(false);
  });
  it('an update takes any subset, bounds still apply', () => {
    expect(ZSimpleRuleUpdate.parse({})).toEqual({});
    expect(ZSimpleRuleUpdate.safeParse({ enabled: false }).success).toBe(true);
    expect(ZSimpleRuleUpdate.safeParse({ duration_s: RULE_WINDOW_MAX_S + 1 }).success).toBe(false);
  });
});

describe('ZBlocklySetting (§3 properties with numeric values)', () => {
  const props = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `p${i}`, value: i }));
  it('at most 50 properties', () => {
    expect(ZBlocklySetting.safeParse({ properties: props(BLOCKLY_PROPERTIES_MAX) }).success).toBe(true);
    expect(ZBlocklySetting.safeParse({ properties: props(BLOCKLY_PROPERTIES_MAX + 1) }).success).toBe(false);
    expect(ZBlocklySetting.safeParse({ properties: [] }).success).toBe(true);
  });
  it('names 1–32 characters and unique; values finite numbers', () => {
    const one = (p: unknown) => ZBlocklySetting.safeParse({ properties: [p] }).success;
    expect(one({ name: 'n'.repeat(RULE_PROPERTY_NAME_MAX), value: 1 })).toBe(true);
    expect(one({ name: 'n'.repeat(RULE_PROPERTY_NAME_MAX + 1), value: 1 })).toBe(false);
    expect(one({ name: ' ', value: 1 })).toBe(false);
    expect(one({ name: '溫度上限', value: -12.5 })).toBe(true);
    expect(one({ name: 'x', value: Number.POSITIVE_INFINITY })).toBe(false);
    expect(one({ name: 'x', value: '3' })).toBe(false);
    const dup = ZBlocklySetting.safeParse({
      properties: [
        { name: 'a', value: 1 },
        { name: 'a', value: 2 },
      ],
    });
    expect(dup.success).toBe(false);
    expect(dup.error?.issues[0].path).toEqual(['properties', 1, 'name']);
  });
});

describe('ZBlocklyWorkspace', () => {
  /** A workspace whose JSON is exactly `chars` long. */
  const sized = (chars: number) => {
    const base = { blocks: { languageVersion: 0, blocks: [] }, pad: '' };
    return { ...base, pad: 'x'.repeat(chars - JSON.stringify(base).length) };
  };
  it(`at most ${BLOCKLY_WORKSPACE_MAX_CHARS} characters of JSON, unknown keys kept`, () => {
    expect(JSON.stringify(sized(BLOCKLY_WORKSPACE_MAX_CHARS)).length).toBe(BLOCKLY_WORKSPACE_MAX_CHARS);
    expect(ZBlocklyWorkspace.safeParse(sized(BLOCKLY_WORKSPACE_MAX_CHARS)).success).toBe(true);
    expect(ZBlocklyWorkspace.safeParse(sized(BLOCKLY_WORKSPACE_MAX_CHARS + 1)).success).toBe(false);
    expect(ZBlocklyWorkspace.parse({ variables: [{ id: 'v' }] })).toEqual({ variables: [{ id: 'v' }] });
    expect(ZCompileRequest.safeParse({ workspace: { blocks: { blocks: 'no' } } }).success).toBe(false);
    expect(ZCompileRequest.safeParse({}).success).toBe(false);
  });
  it('a program needs a name of 1–32 and defaults to enabled', () => {
    expect(ZBlocklyProgramInput.parse({ name: 'P', workspace: {} }).enabled).toBe(true);
    expect(ZBlocklyProgramInput.safeParse({ name: 'n'.repeat(33), workspace: {} }).success).toBe(false);
    expect(ZBlocklyProgramInput.safeParse({ name: 'n'.repeat(32), workspace: {} }).success).toBe(true);
  });
});

describe('ZRuleProgram (the rule tree)', () => {
  const hot: TRuleCondition = {
    type: 'compare',
    op: 'gt',
    left: { type: 'telemetry', key: 'temperature', slot: 'v1' },
    right: { type: 'property', name: 'limit' },
  };
  const alert: TRuleAction = { type: 'alert', level: 'early_warning', message: 'hot' };
  const program = (rules: unknown[]) => ZRuleProgram.safeParse({ version: 1, rules });
  const oneRule = (condition: unknown, actions: unknown[] = [alert]) => program([{ block_id: 'b', condition, actions }]).success;

  it('1–20 rules of 1–10 actions', () => {
    const r = { block_id: null, condition: hot, actions: [alert] };
    expect(program(Array(RULES_PER_PROGRAM_MAX).fill(r)).success).toBe(true);
    expect(program(Array(RULES_PER_PROGRAM_MAX + 1).fill(r)).success).toBe(false);
    expect(program([]).success).toBe(false);
    expect(oneRule(hot, Array(RULE_ACTIONS_MAX).fill(alert))).toBe(true);
    expect(oneRule(hot, Array(RULE_ACTIONS_MAX + 1).fill(alert))).toBe(false);
    expect(oneRule(hot, [])).toBe(false);
    expect(ZRuleProgram.safeParse({ version: 2, rules: [r] }).success).toBe(false);
  });
  it('windows of 1 s to 24 h in whole seconds, for held and aggregate', () => {
    const held = (for_s: number) => oneRule({ type: 'held', condition: hot, for_s });
    expect([1, RULE_WINDOW_MAX_S].map(held)).toEqual([true, true]);
    expect([0, RULE_WINDOW_MAX_S + 1, 2.5].map(held)).toEqual([false, false, false]);
    const agg = (window_s: number) => oneRule({ ...hot, left: { type: 'aggregate', fn: 'avg', key: 'temperature', slot: 'v1', window_s } });
    expect([1, RULE_WINDOW_MAX_S].map(agg)).toEqual([true, true]);
    expect([0, RULE_WINDOW_MAX_S + 1].map(agg)).toEqual([false, false]);
  });
  it('and/or take two or more conditions; not and held nest', () => {
    expect(oneRule({ type: 'and', conditions: [hot, hot, hot] })).toBe(true);
    expect(oneRule({ type: 'or', conditions: [hot] })).toBe(false);
    expect(oneRule({ type: 'not', condition: { type: 'held', condition: hot, for_s: 60 } })).toBe(true);
    expect(oneRule({ type: 'xor', conditions: [hot, hot] })).toBe(false);
  });
  it('status conditions: bit 0–39, length 1–16, = or ≠ only', () => {
    const status = (extra: object) =>
      oneRule({ type: 'status', group: 'Mode', index: 0, length: 2, op: 'eq', value: 2, label: 'Fault', ...extra });
    expect([status({}), status({ index: 39, length: 1 }), status({ op: 'neq' })]).toEqual([true, true, true]);
    expect([status({ index: 40 }), status({ length: 17 }), status({ op: 'gt' })]).toEqual([false, false, false]);
  });
  it('actions: messages 1–200, command names of 1–32 starting with a letter, LINE or email', () => {
    const act = (a: object) => oneRule(hot, [a]);
    expect(act({ type: 'alert', level: 'remind', message: 'm'.repeat(RULE_MESSAGE_MAX) })).toBe(true);
    expect(act({ type: 'alert', level: 'remind', message: 'm'.repeat(RULE_MESSAGE_MAX + 1) })).toBe(false);
    expect(act({ type: 'alert', level: 'remind', message: '' })).toBe(false);
    expect(act({ type: 'notify', channel: 'line', message: 'x' })).toBe(true);
    expect(act({ type: 'notify', channel: 'sms', message: 'x' })).toBe(false);
    expect(act({ type: 'command', name: `f${'a'.repeat(31)}`, value: null })).toBe(true);
    expect(act({ type: 'command', name: `f${'a'.repeat(32)}`, value: null })).toBe(false);
    expect(act({ type: 'command', name: '1fan', value: null })).toBe(false);
    expect(act({ type: 'command', name: 'fan', value: { type: 'number', value: 3 } })).toBe(true);
  });
});

describe('simpleRuleToProgram', () => {
  const simple = ZSimpleRuleInput.parse({ ...rule, notify_line: true });
  it('compares the telemetry slot with the threshold, alerts, then notifies', () => {
    const p = simpleRuleToProgram(simple);
    expect(ZRuleProgram.parse(p)).toEqual(p);
    expect(p.rules[0]).toEqual({
      block_id: null,
      condition: {
        type: 'compare',
        op: 'gt',
        left: { type: 'telemetry', key: 'temperature', slot: 'v1' },
        right: { type: 'number', value: 30 },
      },
      actions: [
        { type: 'alert', level: 'alert', message: 'Too hot' },
        { type: 'notify', channel: 'line', message: 'Too hot' },
      ],
    });
  });
  it('wraps the comparison in held when it has a duration, and clears only after as long (hysteresis)', () => {
    const p = simpleRuleToProgram({ ...simple, duration_s: 60 });
    expect(p.rules[0].condition).toMatchObject({ type: 'held', for_s: 60, condition: { type: 'compare' } });
    expect(p.rules[0].clear_after_s).toBe(60);
    expect(ZRuleProgram.parse(p)).toEqual(p);
    expect(simpleRuleToProgram(simple).rules[0]).not.toHaveProperty('clear_after_s');
  });
  it('takes clear_after_s within the window bounds only', () => {
    const withClear = (clear_after_s: number) => ({
      ...simpleRuleToProgram(simple),
      rules: [{ ...simpleRuleToProgram(simple).rules[0], clear_after_s }],
    });
    expect([RULE_WINDOW_MIN_S, RULE_WINDOW_MAX_S].map((v) => ZRuleProgram.safeParse(withClear(v)).success)).toEqual([true, true]);
    expect([0, RULE_WINDOW_MAX_S + 1, 1.5].map((v) => ZRuleProgram.safeParse(withClear(v)).success)).toEqual([false, false, false]);
  });
});
