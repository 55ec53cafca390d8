/**
 * The interpreter runs no code from rules: the
 * `constructor.constructor('return process')()` family of payloads, put wherever a rule carries text — telemetry
 * keys, property names, messages, command names, node types, raw trees that are not programs — is refused by
 * ZRuleProgram or reads as a name without a value (unknown). Every payload tries to set a global flag; none may.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileRuleProgram } from './compile-program.js';
import { cmp, evaluate, frameFor, num, programOf, tel } from './engine.fixtures.js';
import { truthName } from './truth.js';

type TGlobalFlag = typeof globalThis & { __tesseraPwned?: boolean };
const flag = globalThis as TGlobalFlag;
const PAYLOADS = [
  "constructor.constructor('globalThis.__tesseraPwned = true')()",
  "this.constructor.constructor('return process')().exit(1)",
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection payload, on purpose
  '${globalThis.__tesseraPwned = true}',
  "');globalThis.__tesseraPwned=true;//",
];

/** Compiles and, when accepted, evaluates with telemetry under the payload key too; answers the truth or 'refused'. */
function attempt(raw: unknown, telemetry: Record<string, number[]> = {}): string {
  const r = compileRuleProgram(raw, new Map([['limit', 30]]));
  if (!r.ok) return 'refused';
  const program = r.program;
  const truths = program.rules.map((_, i) => truthName(program.rules[i].condition(frameFor(program, { telemetry }, i))));
  for (const rule of program.rules) for (const c of rule.commands) c.value?.(frameFor(program, { telemetry }, rule.index));
  return truths.join(',');
}

describe('no rule text is ever run as code', () => {
  beforeEach(() => {
    flag.__tesseraPwned = false;
  });
  afterEach(() => {
    expect(flag.__tesseraPwned).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    delete flag.__tesseraPwned;
  });

  it.each(PAYLOADS)('as a telemetry key: %s', (payload) => {
    // Never reported: unknown. Reported under that very name: an ordinary key (the values live in a Map).
    expect(['refused', 'unknown']).toContain(attempt(programOf(cmp(tel(payload), 'gt', num(1)))));
    const reported = attempt(programOf(cmp(tel(payload), 'gt', num(1))), Object.fromEntries([[payload, [5]]]));
    expect(['refused', 'true']).toContain(reported);
    expect(['refused', 'unknown']).toContain(
      attempt(programOf(cmp({ type: 'aggregate', fn: 'avg', key: payload, slot: 'v1', window_s: 60 }, 'gt', num(1)))),
    );
  });

  it.each(PAYLOADS)('as a property name: %s', (payload) => {
    expect(['refused', 'unknown']).toContain(attempt(programOf(cmp(tel('t'), 'gt', { type: 'property', name: payload })), { t: [40] }));
  });

  it.each(PAYLOADS)('as a message, a status label or group: %s', (payload) => {
    const program = {
      version: 1,
      rules: [
        {
          block_id: payload,
          condition: { type: 'status', group: payload, index: 0, length: 2, op: 'eq', value: 1, label: payload },
          actions: [
            { type: 'alert', level: 'alert', message: payload },
            { type: 'notify', channel: 'email', message: payload },
          ],
        },
      ],
    };
    const r = compileRuleProgram(program, new Map());
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.program.rules[0].alert?.message).toBe(payload);
      expect(truthName(evaluate(r.program, { status: 1 }))).toBe('true');
    }
  });

  it.each(PAYLOADS)('as a command name: %s (only plain names pass, and they are only names)', (payload) => {
    const program = {
      version: 1,
      rules: [{ block_id: null, condition: cmp(num(1), 'gt', num(0)), actions: [{ type: 'command', name: payload, value: tel(payload) }] }],
    };
    const r = compileRuleProgram(program, new Map());
    if (r.ok) expect(r.program.rules[0].commands[0].name).toBe(payload);
    else expect(/^[A-Za-z][A-Za-z0-9_.-]{0,31}$/.test(payload)).toBe(false);
  });

  it.each(PAYLOADS)('as a node type, operator, function, slot or level: %s', (payload) => {
    const condition = cmp(tel('t'), 'gt', num(1));
    const variants: unknown[] = [
      programOf({ type: payload } as never),
      programOf({ ...condition, op: payload } as never),
      programOf({ ...condition, left: { type: payload, key: 't', slot: 'v1' } } as never),
      programOf({ ...condition, left: { type: 'telemetry', key: 't', slot: payload } } as never),
      programOf(cmp({ type: 'aggregate', fn: payload, key: 't', slot: 'v1', window_s: 60 } as never, 'gt', num(1))),
      { version: 1, rules: [{ block_id: null, condition, actions: [{ type: payload, message: 'x' }] }] },
      { version: 1, rules: [{ block_id: null, condition, actions: [{ type: 'alert', level: payload, message: 'x' }] }] },
      { version: payload, rules: programOf(condition).rules },
    ];
    for (const v of variants) expect(attempt(v, { t: [5] })).toBe('refused');
  });

  it('raw trees that are not programs: code strings, functions, valueOf objects, prototype pollution through JSON', () => {
    const code = "constructor.constructor('globalThis.__tesseraPwned = true')()";
    const sneakyNumber = {
      valueOf: () => {
        flag.__tesseraPwned = true;
        return 1;
      },
    };
    const raws: unknown[] = [
      code,
      () => {
        flag.__tesseraPwned = true;
      },
      { version: 1, rules: code },
      { version: 1, rules: [{ block_id: null, condition: code, actions: [] }] },
      programOf(cmp(tel('t'), 'gt', { type: 'number', value: sneakyNumber } as never)),
      programOf(cmp(tel('t'), 'gt', { type: 'number', value: code } as never)),
      programOf({ type: 'held', condition: cmp(tel('t'), 'gt', num(1)), for_s: code } as never),
      JSON.parse(`{"__proto__": {"polluted": true}, "version": 1, "rules": "x"}`),
      JSON.parse(`{"version": 1, "rules": [{"block_id": null, "__proto__": {"polluted": true},
        "condition": {"type": "compare", "op": "gt", "left": {"type": "constructor"}, "right": {"type": "number", "value": 1}},
        "actions": [{"type": "alert", "level": "alert", "message": "x"}]}]}`),
    ];
    for (const raw of raws) expect(attempt(raw, { t: [5] })).toBe('refused');
  });

  it('extra keys of a valid tree are dropped, not used', () => {
    const raw = JSON.parse(`{"version": 1, "__proto__": {"polluted": true}, "rules": [{"block_id": null,
      "condition": {"type": "compare", "op": "gt", "left": {"type": "telemetry", "key": "t", "slot": "v1", "run": "process.exit(1)"},
        "right": {"type": "number", "value": 1}, "constructor": {"constructor": "return process"}},
      "actions": [{"type": "alert", "level": "alert", "message": "x", "code": "process.exit(1)"}]}]}`);
    expect(attempt(raw, { t: [5] })).toBe('true');
  });
});
