/**
 * Helpers of the interpreter's unit tests and bench/rules: build small programs and evaluate one rule of a
 * compiled program against telemetry given by name.
 */
import type { TCompareOp, TRuleCondition, TRuleNumExpr, TRuleProgram, TTelemetryValue } from '@tessera/contracts';
import { compileRuleProgram, type TCompiledProgram } from './compile-program.js';
import { emptyDeviceValues, fillAggregates, fillFrame, fillValueFrame } from './device-values.js';
import { createFrame, type TEvalFrame } from './frame.js';
import type { TTruth } from './truth.js';

/** `telemetry key.slot`. */
export const tel = (key: string, slot: 'v1' | 'v2' | 'v3' = 'v1'): TRuleNumExpr => ({ type: 'telemetry', key, slot });
/** A number literal. */
export const num = (value: number): TRuleNumExpr => ({ type: 'number', value });
/** `left op right`. */
export const cmp = (left: TRuleNumExpr, op: TCompareOp, right: TRuleNumExpr): TRuleCondition => ({ type: 'compare', op, left, right });
/** A program of one rule raising an alert when `condition` holds. */
export const programOf = (condition: TRuleCondition): TRuleProgram => ({
  version: 1,
  rules: [{ block_id: null, condition, actions: [{ type: 'alert', level: 'alert', message: 'x' }] }],
});

/** Compiles `program` or throws with the refusal. */
export function mustCompile(program: unknown, properties: Record<string, number> = {}): TCompiledProgram {
  const r = compileRuleProgram(program, new Map(Object.entries(properties)));
  if (!r.ok) throw new Error(r.error);
  return r.program;
}

/** What one evaluation sees: telemetry by key (`[v1, v2?, v3?]`), status word, aggregate results, time. */
export interface TInputs {
  telemetry?: Record<string, number[]>;
  status?: number;
  aggregates?: number[];
  /** Non-numeric keys: the latest value, the one before it (absent: unknown), and whether the point is fresh. */
  values?: Record<string, { value: TTelemetryValue; prev?: TTelemetryValue; fresh?: boolean }>;
  t?: number;
}

/** A frame for rule `rule` of `program` filled from `inputs`; pass it again to keep `held` state. */
export function frameFor(program: TCompiledProgram, inputs: TInputs, rule = 0, frame?: TEvalFrame): TEvalFrame {
  const f = frame ?? createFrame(program.refs.length, program.aggregates.length, program.rules[rule].heldSlots, program.valueKeys.length);
  const device = emptyDeviceValues();
  for (const [key, vs] of Object.entries(inputs.telemetry ?? {})) {
    device.telemetry.set(key, { ts: 0, vs: [vs[0] ?? Number.NaN, vs[1] ?? Number.NaN, vs[2] ?? Number.NaN] });
  }
  const fresh = new Set<string>();
  for (const [key, v] of Object.entries(inputs.values ?? {})) {
    device.telemetry.set(key, {
      ts: 0,
      vs: [Number.NaN, Number.NaN, Number.NaN],
      value: v.value,
      ...(v.prev !== undefined && { prev: v.prev }),
    });
    if (v.fresh !== false) fresh.add(key);
  }
  if (inputs.status !== undefined) device.status = inputs.status;
  fillFrame(f, program.refs, device);
  fillValueFrame(f, program.valueKeys, device, fresh);
  fillAggregates(f, program.aggregates, inputs.aggregates ?? []);
  f.t = inputs.t ?? 0;
  return f;
}

/** Evaluates rule `rule` of `program` once. */
export function evaluate(program: TCompiledProgram, inputs: TInputs, rule = 0): TTruth {
  return program.rules[rule].condition(frameFor(program, inputs, rule));
}
