import { COMPARE_OPS, simpleRuleToProgram, type TCompareOp, type TRuleCondition } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { compileRuleProgram } from './compile-program.js';
import { cmp, evaluate, frameFor, mustCompile, num, programOf, tel } from './engine.fixtures.js';
import { FALSE, kleeneAnd, kleeneNot, kleeneOr, TRUE, truthName, UNKNOWN, type TTruth } from './truth.js';

const run = (c: TRuleCondition, inputs: Parameters<typeof evaluate>[1], properties?: Record<string, number>) =>
  truthName(evaluate(mustCompile(programOf(c), properties), inputs));

/** A condition whose truth is chosen by telemetry `key`: 1 → true, -1 → false, absent → unknown. */
const pick = (key: string) => cmp(tel(key), 'gt', num(0));
const inputOf = (truths: Record<string, TTruth>) => ({
  telemetry: Object.fromEntries(
    Object.entries(truths)
      .filter(([, t]) => t !== UNKNOWN)
      .map(([k, t]) => [k, [t === TRUE ? 1 : -1]]),
  ),
});
const ALL: TTruth[] = [FALSE, TRUE, UNKNOWN];
const expected: Record<TCompareOp, (a: number, b: number) => boolean> = {
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
  eq: (a, b) => a === b,
  neq: (a, b) => a !== b,
};

describe('compare', () => {
  it.each(COMPARE_OPS)('%s: telemetry vs number, number vs telemetry, telemetry vs telemetry, numbers', (op) => {
    for (const [a, b] of [
      [1, 2],
      [2, 2],
      [3, 2],
    ]) {
      const want = expected[op](a, b) ? 'true' : 'false';
      expect(run(cmp(tel('x'), op, num(b)), { telemetry: { x: [a] } })).toBe(want);
      expect(run(cmp(num(a), op, tel('y')), { telemetry: { y: [b] } })).toBe(want);
      expect(run(cmp(tel('x'), op, tel('y')), { telemetry: { x: [a], y: [b] } })).toBe(want);
      expect(run(cmp(num(a), op, num(b)), {})).toBe(want);
    }
  });

  it.each(COMPARE_OPS)('%s: a missing operand is unknown, never false', (op) => {
    expect(run(cmp(tel('x'), op, num(1)), {})).toBe('unknown');
    expect(run(cmp(num(1), op, tel('x')), {})).toBe('unknown');
    expect(run(cmp(tel('x'), op, tel('y')), { telemetry: { x: [1] } })).toBe('unknown');
    expect(run(cmp(tel('x', 'v2'), op, num(1)), { telemetry: { x: [1] } })).toBe('unknown');
  });

  it('reads the slot asked for', () => {
    expect(run(cmp(tel('vib', 'v3'), 'eq', num(7)), { telemetry: { vib: [1, 2, 7] } })).toBe('true');
    expect(run(cmp(tel('vib', 'v2'), 'eq', num(7)), { telemetry: { vib: [1, 2, 7] } })).toBe('false');
  });
});

describe('values', () => {
  it('property: the setting value at compile time; a property that does not exist is unknown', () => {
    const c = cmp(tel('t'), 'gt', { type: 'property', name: 'limit' });
    expect(run(c, { telemetry: { t: [31] } }, { limit: 30 })).toBe('true');
    expect(run(c, { telemetry: { t: [29] } }, { limit: 30 })).toBe('false');
    expect(run(c, { telemetry: { t: [31] } }, {})).toBe('unknown');
    expect(run(cmp({ type: 'property', name: 'limit' }, 'lt', num(50)), {}, { limit: 30 })).toBe('true');
  });

  it('aggregate: the engine-provided result; NaN (no point in the window) is unknown, count 0 is a number', () => {
    const avg = cmp({ type: 'aggregate', fn: 'avg', key: 't', slot: 'v1', window_s: 60 }, 'gt', num(30));
    expect(run(avg, { aggregates: [31] })).toBe('true');
    expect(run(avg, { aggregates: [Number.NaN] })).toBe('unknown');
    const count = cmp({ type: 'aggregate', fn: 'count', key: 't', slot: 'v1', window_s: 60 }, 'eq', num(0));
    expect(run(count, { aggregates: [0] })).toBe('true');
    const p = mustCompile(programOf(cmp({ type: 'aggregate', fn: 'max', key: 't', slot: 'v2', window_s: 90 }, 'gt', num(1))));
    expect(p.aggregates).toEqual([{ fn: 'max', key: 't', slot: 1, windowMs: 90_000 }]);
    expect([...p.rules[0].keys]).toEqual(['t']);
  });

  it('status: the slice of the 40-bit word (counted from the right) against the raw value; no word is unknown', () => {
    const mode = (op: 'eq' | 'neq', value: number): TRuleCondition => ({
      type: 'status',
      group: 'Mode',
      index: 4,
      length: 2,
      op,
      value,
      label: 'x',
    });
    const word = 0b10_0000; // bits 4..5 = 2
    expect(run(mode('eq', 2), { status: word })).toBe('true');
    expect(run(mode('eq', 1), { status: word })).toBe('false');
    expect(run(mode('neq', 1), { status: word })).toBe('true');
    expect(run(mode('eq', 2), {})).toBe('unknown');
    expect(run(mode('eq', 1), { status: 2 ** 39 + 0b01_0000 })).toBe('true');
    expect(run({ type: 'status', group: 'Top', index: 39, length: 2, op: 'eq', value: 0, label: 'x' }, { status: 0 })).toBe('unknown');
    expect(mustCompile(programOf(mode('eq', 2))).rules[0].usesStatus).toBe(true);
  });
});

describe('Kleene logic', () => {
  it.each(ALL.flatMap((a) => ALL.map((b) => [a, b] as const)))('and / or of %s and %s, both orders and n-ary', (a, b) => {
    const inputs = inputOf({ a, b });
    expect(run({ type: 'and', conditions: [pick('a'), pick('b')] }, inputs)).toBe(truthName(kleeneAnd(a, b)));
    expect(run({ type: 'or', conditions: [pick('a'), pick('b')] }, inputs)).toBe(truthName(kleeneOr(a, b)));
    expect(run({ type: 'and', conditions: [pick('b'), pick('a')] }, inputs)).toBe(truthName(kleeneAnd(a, b)));
    const three = inputOf({ a, b, c: TRUE });
    expect(run({ type: 'and', conditions: [pick('a'), pick('b'), pick('c')] }, three)).toBe(truthName(kleeneAnd(a, b)));
    expect(run({ type: 'or', conditions: [pick('a'), pick('b'), { type: 'not', condition: pick('c') }] }, three)).toBe(
      truthName(kleeneOr(a, b)),
    );
  });

  it('the tables themselves', () => {
    expect(ALL.map((a) => ALL.map((b) => truthName(kleeneAnd(a, b))))).toEqual([
      ['false', 'false', 'false'],
      ['false', 'true', 'unknown'],
      ['false', 'unknown', 'unknown'],
    ]);
    expect(ALL.map((a) => ALL.map((b) => truthName(kleeneOr(a, b))))).toEqual([
      ['false', 'true', 'unknown'],
      ['true', 'true', 'true'],
      ['unknown', 'true', 'unknown'],
    ]);
    expect(ALL.map((a) => truthName(kleeneNot(a)))).toEqual(['true', 'false', 'unknown']);
  });

  it.each(ALL)('not %s', (a) => {
    expect(run({ type: 'not', condition: pick('a') }, inputOf({ a }))).toBe(truthName(kleeneNot(a)));
  });

  it('"not (temperature > 30)" does not fire for a device that never reported', () => {
    expect(run({ type: 'not', condition: cmp(tel('temperature'), 'gt', num(30)) }, {})).toBe('unknown');
  });
});

describe('held', () => {
  const program = mustCompile(programOf({ type: 'held', condition: pick('a'), for_s: 60 }));
  const step = (frame: ReturnType<typeof frameFor> | undefined, a: TTruth, t: number) => {
    const f = frameFor(program, { ...inputOf({ a }), t }, 0, frame);
    return [f, truthName(program.rules[0].condition(f))] as const;
  };

  it('true once the condition has been true at every evaluation for for_s; false or unknown resets it', () => {
    let [f, r] = step(undefined, TRUE, 0);
    expect(r).toBe('false');
    [f, r] = step(f, TRUE, 59_999);
    expect(r).toBe('false');
    [f, r] = step(f, TRUE, 60_000);
    expect(r).toBe('true');
    [f, r] = step(f, FALSE, 61_000);
    expect(r).toBe('false');
    [f, r] = step(f, TRUE, 62_000);
    expect(r).toBe('false');
    [f, r] = step(f, UNKNOWN, 130_000);
    expect(r).toBe('unknown');
    [f, r] = step(f, TRUE, 131_000);
    expect(r).toBe('false');
    [, r] = step(f, TRUE, 191_000);
    expect(r).toBe('true');
  });

  it('a held inside "and" sees every evaluation, even when the other part is false', () => {
    const p = mustCompile(programOf({ type: 'and', conditions: [pick('g'), { type: 'held', condition: pick('a'), for_s: 10 }] }));
    const at = (g: TTruth, a: TTruth, t: number, f?: ReturnType<typeof frameFor>) => frameFor(p, { ...inputOf({ g, a }), t }, 0, f);
    let f = at(FALSE, TRUE, 0);
    expect(p.rules[0].condition(f)).toBe(FALSE);
    f = at(FALSE, FALSE, 5_000, f); // the gate is false, but the held must still see that a stopped
    expect(p.rules[0].condition(f)).toBe(FALSE);
    f = at(TRUE, TRUE, 11_000, f);
    expect(p.rules[0].condition(f)).toBe(FALSE);
    f = at(TRUE, TRUE, 21_000, f);
    expect(p.rules[0].condition(f)).toBe(TRUE);
    expect(p.rules[0].heldSlots).toBe(1);
  });
});

describe('clear_after_s (hysteresis)', () => {
  const base = programOf(pick('a'));
  const program = mustCompile({ ...base, rules: [{ ...base.rules[0], clear_after_s: 60 }] });
  const rule = program.rules[0];
  const step = (frame: ReturnType<typeof frameFor> | undefined, a: TTruth, t: number) => {
    const f = frameFor(program, { ...inputOf({ a }), t }, 0, frame);
    rule.condition(f);
    return [f, truthName(rule.clear?.(f) ?? UNKNOWN)] as const;
  };

  it('clears only once the condition has been not-true for the whole delay; a true evaluation restarts the wait', () => {
    expect(rule.heldSlots).toBe(1);
    let [f, r] = step(undefined, TRUE, 0);
    expect(r).toBe('false');
    [f, r] = step(f, FALSE, 1_000);
    expect(r).toBe('false');
    [f, r] = step(f, TRUE, 30_000); // back above: the wait starts over
    expect(r).toBe('false');
    [f, r] = step(f, FALSE, 31_000);
    [f, r] = step(f, FALSE, 90_999);
    expect(r).toBe('false');
    [f, r] = step(f, UNKNOWN, 91_000); // missing data is no evidence of clearing: the wait starts over
    expect(r).toBe('unknown');
    [f, r] = step(f, FALSE, 92_000);
    [f, r] = step(f, FALSE, 151_999);
    expect(r).toBe('false');
    [, r] = step(f, FALSE, 152_000);
    expect(r).toBe('true');
  });

  it('a rule without clear_after_s has no clear timer (its first definite false clears it)', () => {
    expect(mustCompile(base).rules[0].clear).toBeNull();
  });
});

describe('programs', () => {
  it('a simple rule is a program: simpleRuleToProgram compiles and runs the same evaluator', () => {
    const p = mustCompile(
      simpleRuleToProgram({
        key: 'temperature',
        slot: 'v1',
        op: 'gt',
        threshold: 30,
        value: null,
        duration_s: 0,
        level: 'alert',
        message: 'Too hot',
        notify_email: true,
        notify_line: false,
      }),
    );
    expect(truthName(evaluate(p, { telemetry: { temperature: [31] } }))).toBe('true');
    expect(p.rules[0]).toMatchObject({ alert: { level: 'alert', message: 'Too hot' }, notify: [{ channel: 'email', message: 'Too hot' }] });
    expect(p.rules[0].trigger).toEqual({ key: 'temperature', ref: 0 });
  });

  it('actions: the first alert, notifies in order, commands with values evaluated later; each rule its own index', () => {
    const p = mustCompile({
      version: 1,
      rules: [
        { block_id: 'a', condition: pick('a'), actions: [{ type: 'notify', channel: 'line', message: 'n' }] },
        {
          block_id: 'b',
          condition: cmp(num(1), 'lt', tel('b')),
          actions: [
            { type: 'alert', level: 'remind', message: 'first' },
            { type: 'alert', level: 'alert', message: 'second' },
            { type: 'command', name: 'fan.on', value: tel('speed') },
            { type: 'command', name: 'beep', value: null },
          ],
        },
      ],
    });
    expect(p.rules.map((r) => r.index)).toEqual([0, 1]);
    expect(p.rules[0]).toMatchObject({ alert: null, notify: [{ channel: 'line', message: 'n' }], commands: [] });
    expect(p.rules[1].alert).toEqual({ level: 'remind', message: 'first' });
    expect(p.rules[1].commands.map((c) => c.name)).toEqual(['fan.on', 'beep']);
    expect([...p.rules[1].keys]).toEqual(['b']); // the command's `speed` does not trigger the rule
    const f = frameFor(p, { telemetry: { speed: [3] } }, 1);
    expect(p.rules[1].commands[0].value?.(f)).toBe(3);
  });

  it('refuses what is not a version-1 program', () => {
    for (const bad of [null, 42, 'x', [], {}, { version: 2, rules: programOf(pick('a')).rules }, { version: 1, rules: [] }]) {
      expect(compileRuleProgram(bad, new Map()).ok).toBe(false);
    }
  });

  it('refuses nesting deeper than RULE_DEPTH_MAX (the compiler never produces it)', () => {
    let c: TRuleCondition = pick('a');
    for (let i = 0; i < 20; i++) c = { type: 'not', condition: c };
    expect(compileRuleProgram(programOf(c), new Map())).toMatchObject({ ok: false });
    let deep: unknown = pick('a');
    for (let i = 0; i < 100_000; i++) deep = { type: 'not', condition: deep };
    expect(compileRuleProgram(programOf(deep as TRuleCondition), new Map()).ok).toBe(false);
  });
});
