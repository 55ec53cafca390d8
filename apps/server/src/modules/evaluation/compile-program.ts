/**
 * The rule-program interpreter's front door: a stored program (JSON, possibly old or tampered with) is checked by
 * `ZRuleProgram` — anything else is refused, never run — and its tree is walked once into closures
 * (compile-conditions.ts, compile-values.ts). No `eval`, no `Function`: the closures are written here, the tree only
 * chooses and parameterises them. Semantics: docs/decisions/rules.md, docs/rules.md.
 */
import { type TAlertLevel, type TRuleCondition, type TRuleNumExpr, type TRuleProgram, ZRuleProgram } from '@tessera/contracts';
import { compileCondition } from './compile-conditions.js';
import { compileNum, RuleProgramError, type TRuleScope } from './compile-values.js';
import type { TCondFn, TNumFn } from './frame.js';
import { ProgramSymbols, type TAggregateRef, type TTelemetryRef } from './symbols.js';

/** A `command` action: value null sends `params: {}`. */
export interface TCompiledCommand {
  name: string;
  value: TNumFn | null;
}

/** One rule of a compiled program. */
export interface TCompiledRule {
  /** Position in the program (the alert's `rule_index`). */
  index: number;
  condition: TCondFn;
  /** Telemetry keys the condition reads; a fresh point of one evaluates the rule (none: every fresh point does). */
  keys: ReadonlySet<string>;
  /** The condition reads the status word (a fresh status word evaluates the rule). */
  usesStatus: boolean;
  /**
   * Hysteresis (`clear_after_s`): true once the condition has been not-true for that long without a break — only then
   * does an active rule clear. Null: the first definite false clears it. It shares the rule's `held` slots.
   */
  clear: TCondFn | null;
  /** Number of `held` nodes, the clear timer's included (the length of the frame's `held` for this rule). */
  heldSlots: number;
  /** The rule's first `alert` action (one alert per rule and device; later alert actions add nothing). */
  alert: { level: TAlertLevel; message: string } | null;
  /** `notify` actions, in order. */
  notify: { channel: 'email' | 'line'; message: string }[];
  commands: TCompiledCommand[];
  /**
   * The condition tests `changed`, which is true only at the evaluation of the changing point: after a true
   * evaluation the rule is set false again at once (docs/decisions/rules.md "changed"), so every change fires, in
   * level and edge alike, and its alert opens and clears.
   */
  momentary: boolean;
  /** The telemetry value shown as the alert's trigger: the first one the condition reads, as a frame index. */
  trigger: { key: string; ref: number } | null;
}

/** A compiled program: its name tables and rules. */
export interface TCompiledProgram {
  refs: readonly TTelemetryRef[];
  aggregates: readonly TAggregateRef[];
  /** The non-numeric keys value tests read (the frame's `raw` and `changed`). */
  valueKeys: readonly string[];
  rules: readonly TCompiledRule[];
}

/** The outcome of {@link compileRuleProgram}. */
export type TProgramCompileResult = { ok: true; program: TCompiledProgram } | { ok: false; error: string };

/**
 * Checks `raw` against ZRuleProgram and compiles it. `properties` are the project's blockly-setting values (a
 * property not among them reads as unknown). Never throws: a refused tree answers `{ ok: false, error }`.
 */
export function compileRuleProgram(raw: unknown, properties: ReadonlyMap<string, number>): TProgramCompileResult {
  let program: TRuleProgram;
  try {
    const parsed = ZRuleProgram.safeParse(raw);
    if (!parsed.success) return { ok: false, error: `not a rule program: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
    program = parsed.data;
  } catch {
    // A pathologically deep tree can exhaust the stack while being checked.
    return { ok: false, error: 'not a rule program: too deep to check' };
  }
  try {
    const symbols = new ProgramSymbols();
    const rules = program.rules.map((rule, index) => compileRule(rule, index, symbols, properties));
    return { ok: true, program: { refs: symbols.refs, aggregates: symbols.aggregates, valueKeys: symbols.valueKeys, rules } };
  } catch (err) {
    if (err instanceof RuleProgramError || err instanceof RangeError) return { ok: false, error: err.message };
    throw err;
  }
}

function compileRule(
  rule: TRuleProgram['rules'][number],
  index: number,
  symbols: ProgramSymbols,
  properties: ReadonlyMap<string, number>,
): TCompiledRule {
  const scope: TRuleScope = { symbols, properties, keys: new Set(), usesStatus: false, held: 0, momentary: false };
  const condition = compileCondition(rule.condition, scope, 1).fn;
  const clear = rule.clear_after_s
    ? compileCondition({ type: 'held', condition: { type: 'not', condition: rule.condition }, for_s: rule.clear_after_s }, scope, 1).fn
    : null;
  // Action values read telemetry too, but only the condition decides when the rule is evaluated.
  const actionScope: TRuleScope = { symbols, properties, keys: new Set(), usesStatus: false, held: 0, momentary: false };
  let alert: TCompiledRule['alert'] = null;
  const notify: TCompiledRule['notify'] = [];
  const commands: TCompiledCommand[] = [];
  for (const a of rule.actions) {
    if (a.type === 'alert') alert ??= { level: a.level, message: a.message };
    else if (a.type === 'notify') notify.push({ channel: a.channel, message: a.message });
    else if (a.type === 'command') commands.push({ name: a.name, value: a.value ? compileNum(a.value, actionScope, 2).fn : null });
  }
  const first = firstTelemetry(rule.condition);
  return {
    index,
    condition,
    clear,
    keys: scope.keys,
    usesStatus: scope.usesStatus,
    heldSlots: scope.held,
    momentary: scope.momentary,
    alert,
    notify,
    commands,
    trigger: first ? { key: first.key, ref: symbols.telemetry(first.key, first.slot) } : null,
  };
}

type TTelemetryExpr = Extract<TRuleNumExpr, { type: 'telemetry' }>;

/** The first telemetry value the condition reads, depth first, left to right. */
function firstTelemetry(c: TRuleCondition): TTelemetryExpr | null {
  switch (c.type) {
    case 'compare':
      if (c.left.type === 'telemetry') return c.left;
      return c.right.type === 'telemetry' ? c.right : null;
    case 'and':
    case 'or':
      for (const p of c.conditions) {
        const hit = firstTelemetry(p);
        if (hit) return hit;
      }
      return null;
    case 'not':
    case 'held':
      return firstTelemetry(c.condition);
    default:
      return null;
  }
}
