import {
  BLOCKLY_BLOCKS_MAX,
  RULE_ACTIONS_MAX,
  RULE_DEPTH_MAX,
  RULE_MESSAGE_MAX,
  RULES_PER_PROGRAM_MAX,
  type TCompileResult,
  ZRuleProgram,
} from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { compileWorkspace, type TCompileContext } from './compile.js';
import { b, hotRule, type TRawBlock, workspace } from './workspace.fixtures.js';

const ctx: TCompileContext = {
  sensors: [
    { key: 'temperature', value_count: 1 },
    { key: 'vibration', value_count: 3 },
  ],
  statusGroups: [
    {
      name: 'Mode',
      index: 4,
      bytesLength: 2,
      values: [
        { value: 0, label: 'Idle' },
        { value: 2, label: 'Fault' },
      ],
    },
  ],
  properties: ['limit'],
};
const compile = (...top: TRawBlock[]) => compileWorkspace(workspace(...top), ctx);
const errorsOf = (r: TCompileResult) => r.errors.map((e) => [e.block_id, e.code]);
/** The errors of a rule whose condition is `cond` (and a valid alert). */
const condErrors = (cond: TRawBlock) => errorsOf(compile(b.rule('r', cond, b.alert('a', 'alert', 'x'))));
const hot = (id = 'c') => b.compare(id, b.telemetry(`${id}t`, 'temperature'), 'gt', b.number(`${id}n`, 30));

describe('compileWorkspace: programs that compile', () => {
  it('when temperature > 30 then alert', () => {
    const r = compile(hotRule());
    expect(r).toEqual({
      ok: true,
      errors: [],
      program: {
        version: 1,
        rules: [
          {
            block_id: 'r-rule',
            condition: {
              type: 'compare',
              op: 'gt',
              left: { type: 'telemetry', key: 'temperature', slot: 'v1' },
              right: { type: 'number', value: 30 },
            },
            actions: [{ type: 'alert', level: 'alert', message: 'Too hot' }],
          },
        ],
      },
    });
  });

  it('the whole vocabulary: and/or flattened, not, held, aggregate, property, status, notify, command', () => {
    const avg = b.aggregate('avg', 'avg', 'vibration', 5, 'min', 'v3');
    const fault = b.compare('st', b.label('lb', 'Fault'), 'eq', b.status('sg', 'Mode'));
    const cond = b.logic(
      'and2',
      b.logic('and1', b.held('h', hot(), 30), 'and', b.not('n', fault)),
      'and',
      b.compare('c2', avg, 'gte', b.property('p', 'limit')),
    );
    const r = compile(
      b.rule(
        'r',
        cond,
        b.notify('e', 'email', ' Check it '),
        b.command('cmd', 'fan', b.property('p2', 'limit')),
        b.command('cmd2', 'stop'),
      ),
    );
    expect(r.errors).toEqual([]);
    expect(ZRuleProgram.parse(r.program)).toEqual(r.program);
    expect(r.program?.rules[0]).toEqual({
      block_id: 'r',
      condition: {
        type: 'and',
        conditions: [
          { type: 'held', for_s: 30, condition: expect.objectContaining({ type: 'compare', op: 'gt' }) },
          { type: 'not', condition: { type: 'status', group: 'Mode', index: 4, length: 2, op: 'eq', value: 2, label: 'Fault' } },
          {
            type: 'compare',
            op: 'gte',
            left: { type: 'aggregate', fn: 'avg', key: 'vibration', slot: 'v3', window_s: 300 },
            right: { type: 'property', name: 'limit' },
          },
        ],
      },
      actions: [
        { type: 'notify', channel: 'email', message: 'Check it' },
        { type: 'command', name: 'fan', value: { type: 'property', name: 'limit' } },
        { type: 'command', name: 'stop', value: null },
      ],
    });
  });

  it('several rules in workspace order; disabled blocks are left out', () => {
    const off = { ...b.number('off', 1), enabled: false };
    const r = compile(hotRule('one'), off, hotRule('two'), { ...b.rule('x'), disabledReasons: ['MANUALLY_DISABLED'] });
    expect(r.program?.rules.map((x) => x.block_id)).toEqual(['one-rule', 'two-rule']);
  });
});

describe('compileWorkspace: errors block by block', () => {
  it('no rule, garbage and orphans', () => {
    for (const ws of [null, 'x', {}, { blocks: { blocks: 5 } }, workspace()]) {
      expect(errorsOf(compileWorkspace(ws, ctx))).toEqual([[null, 'no_rules']]);
    }
    expect(errorsOf(compile(hotRule(), b.number('lone', 1)))).toEqual([['lone', 'orphan_block']]);
    expect(errorsOf(compileWorkspace({ blocks: { blocks: [hotRule(), 42] } }, ctx))).toEqual([[null, 'unknown_block']]);
  });

  it('missing inputs land on the block that lacks them', () => {
    expect(errorsOf(compile(b.rule('r', undefined, b.alert('a', 'alert', 'x'))))).toEqual([['r', 'missing_input']]);
    expect(errorsOf(compile(b.rule('r', hot())))).toEqual([['r', 'missing_input']]);
    expect(condErrors(b.compare('c', b.telemetry('t', 'temperature'), 'gt', undefined))).toEqual([['c', 'missing_input']]);
    expect(condErrors(b.compare('c', b.telemetry('t', 'temperature'), 'gt', { ...b.number('n', 1), enabled: false }))).toEqual([
      ['c', 'missing_input'],
    ]);
    expect(condErrors(b.not('n'))).toEqual([['n', 'missing_input']]);
  });

  it('unknown key, slot past the sensor, unknown status group, label and property', () => {
    expect(condErrors(b.compare('c', b.telemetry('t', 'pressure'), 'gt', b.number('n', 1)))).toEqual([['t', 'unknown_key']]);
    expect(condErrors(b.compare('c', b.telemetry('t', 'temperature', 'v2'), 'gt', b.number('n', 1)))).toEqual([['t', 'slot_out_of_range']]);
    expect(condErrors(b.compare('c', b.telemetry('t', 'vibration', 'v3'), 'gt', b.number('n', 1)))).toEqual([]);
    expect(condErrors(b.compare('c', b.telemetry('t', 'vibration', 'v4'), 'gt', b.number('n', 1)))).toEqual([['t', 'bad_field']]);
    expect(condErrors(b.compare('c', b.status('s', 'Door'), 'eq', b.label('l', 'Open')))).toEqual([['s', 'unknown_status_group']]);
    expect(condErrors(b.compare('c', b.status('s', 'Mode'), 'eq', b.label('l', 'Run')))).toEqual([['l', 'unknown_label']]);
    expect(condErrors(b.compare('c', b.property('p', 'max'), 'lt', b.number('n', 1)))).toEqual([['p', 'unknown_property']]);
  });

  it('type mismatches: a status label against a number, a number as a condition, an action as a value', () => {
    const r = compile(b.rule('r', b.compare('c', b.status('s', 'Mode'), 'eq', b.number('n', 2)), b.alert('a', 'alert', 'x')));
    expect(errorsOf(r)).toEqual([['c', 'type_mismatch']]);
    expect(r.errors[0].message).toBe('a status group cannot be compared with a number');
    expect(condErrors(b.compare('c', b.label('l', 'Fault'), 'gt', b.number('n', 2)))).toEqual([['c', 'type_mismatch']]);
    expect(condErrors(b.compare('c', b.status('s', 'Mode'), 'gt', b.label('l', 'Fault')))).toEqual([['c', 'bad_operator']]);
    expect(condErrors(b.number('n', 3))).toEqual([['n', 'type_mismatch']]);
    expect(condErrors(b.logic('l', hot(), 'and', b.telemetry('t', 'temperature')))).toEqual([['t', 'type_mismatch']]);
    expect(condErrors(b.compare('c', b.alert('a2', 'alert', 'x'), 'gt', b.number('n', 1)))).toEqual([['a2', 'type_mismatch']]);
    expect(condErrors(b.compare('c', hot('h'), 'gt', b.number('n', 1)))).toEqual([['c', 'type_mismatch']]);
    expect(errorsOf(compile(b.rule('r', hot(), b.number('n2', 1))))).toEqual([['n2', 'type_mismatch']]);
    expect(errorsOf(compile(b.rule('r', hot(), b.command('k', 'fan', hot('h')))))).toEqual([['h', 'type_mismatch']]);
    expect(condErrors(b.compare('c', { ...b.number('x', 1), type: 'math_number' }, 'gt', b.number('n', 1)))).toEqual([
      ['x', 'unknown_block'],
    ]);
  });

  it('bad fields: operator, number, level, channel', () => {
    expect(condErrors(b.compare('c', b.telemetry('t', 'temperature'), '>', b.number('n', 1)))).toEqual([['c', 'bad_field']]);
    expect(condErrors(b.compare('c', b.telemetry('t', 'temperature'), 'gt', b.number('n', '30')))).toEqual([['n', 'bad_number']]);
    expect(condErrors(b.logic('l', hot('x'), 'xor', hot('y')))).toEqual([['l', 'bad_field']]);
    expect(errorsOf(compile(b.rule('r', hot(), b.alert('a', 'critical', 'x'))))).toEqual([['a', 'bad_field']]);
    expect(errorsOf(compile(b.rule('r', hot(), b.notify('a', 'sms', 'x'))))).toEqual([['a', 'bad_field']]);
  });

  it('windows: 1 s to 24 h in whole seconds, in s or min, for held and aggregate', () => {
    const held = (w: unknown, unit: string) => condErrors(b.held('h', hot(), w, unit));
    expect([held(1, 's'), held(86_400, 's'), held(1_440, 'min'), held(0.5, 'min')]).toEqual([[], [], [], []]);
    for (const [w, unit] of [
      [0, 's'],
      [86_401, 's'],
      [1_441, 'min'],
      [1.5, 's'],
      [-1, 's'],
    ] as const) {
      expect(held(w, unit), `${w} ${unit}`).toEqual([['h', 'window_out_of_range']]);
    }
    expect(held('x', 's')).toEqual([['h', 'bad_number']]);
    expect(held(5, 'h')).toEqual([['h', 'bad_field']]);
    const agg = (w: number) => condErrors(b.compare('c', b.aggregate('g', 'max', 'temperature', w), 'gt', b.number('n', 1)));
    expect([agg(1), agg(86_400)]).toEqual([[], []]);
    expect([agg(0), agg(86_401)]).toEqual([[['g', 'window_out_of_range']], [['g', 'window_out_of_range']]]);
  });

  it(`messages 1–${RULE_MESSAGE_MAX} characters, command names 1–32 starting with a letter`, () => {
    const act = (a: TRawBlock) => errorsOf(compile(b.rule('r', hot(), a)));
    expect(act(b.alert('a', 'remind', 'm'.repeat(RULE_MESSAGE_MAX)))).toEqual([]);
    expect(act(b.alert('a', 'remind', 'm'.repeat(RULE_MESSAGE_MAX + 1)))).toEqual([['a', 'bad_message']]);
    expect(act(b.notify('a', 'line', '  '))).toEqual([['a', 'bad_message']]);
    expect(act(b.command('k', `f${'x'.repeat(31)}`))).toEqual([]);
    expect(act(b.command('k', `f${'x'.repeat(32)}`))).toEqual([['k', 'bad_command']]);
    expect(act(b.command('k', '1fan'))).toEqual([['k', 'bad_command']]);
  });

  it('collects every error of the workspace at once', () => {
    const r = compile(
      b.rule('r1', b.compare('c', b.telemetry('t', 'nope'), 'gt', undefined), b.alert('a', 'alert', '')),
      b.rule('r2', hot('ok'), b.alert('a2', 'alert', 'fine')),
      b.number('lone', 3),
    );
    expect(r.ok).toBe(false);
    expect(r.program).toBeNull();
    expect(errorsOf(r)).toEqual([
      ['t', 'unknown_key'],
      ['c', 'missing_input'],
      ['a', 'bad_message'],
      ['lone', 'orphan_block'],
    ]);
  });
});

describe('compileWorkspace: size bounds', () => {
  /** A rule of exactly `size` blocks: rule + compare + telemetry + number + (size − 4) alerts. */
  const ruleOf = (id: string, size: number) =>
    b.rule(id, hot(`${id}c`), ...Array.from({ length: size - 4 }, (_, i) => b.alert(`${id}a${i}`, 'remind', 'x')));

  it(`at most ${BLOCKLY_BLOCKS_MAX} blocks and ${RULES_PER_PROGRAM_MAX} rules`, () => {
    const rules = Array.from({ length: RULES_PER_PROGRAM_MAX }, (_, i) => ruleOf(`r${i}`, BLOCKLY_BLOCKS_MAX / RULES_PER_PROGRAM_MAX));
    expect(compile(...rules).ok).toBe(true);
    expect(errorsOf(compile(...rules, b.number('one-more', 1)))).toEqual([[null, 'too_many_blocks']]);
    const small = Array.from({ length: RULES_PER_PROGRAM_MAX + 1 }, (_, i) => ruleOf(`s${i}`, 5));
    expect(errorsOf(compile(...small))).toEqual([[null, 'too_many_blocks']]);
  });

  it(`at most ${RULE_ACTIONS_MAX} actions per rule`, () => {
    expect(compile(ruleOf('r', RULE_ACTIONS_MAX + 4)).ok).toBe(true);
    expect(errorsOf(compile(ruleOf('r', RULE_ACTIONS_MAX + 5)))).toEqual([['r', 'too_many_actions']]);
  });

  it(`nesting at most ${RULE_DEPTH_MAX} deep`, () => {
    const nested = (n: number): TRawBlock => (n === 0 ? hot() : b.not(`not${n}`, nested(n - 1)));
    // The rule's condition is depth 1, so n nots put the compare's operands at depth n + 2.
    expect(condErrors(nested(RULE_DEPTH_MAX - 2))).toEqual([]);
    expect(condErrors(nested(RULE_DEPTH_MAX - 1))).toEqual([
      ['ct', 'too_deep'],
      ['cn', 'too_deep'],
    ]);
  });
});
