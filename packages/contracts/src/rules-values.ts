/**
 * Which rule operators fit which telemetry value type (docs/decisions/rules.md "Keys that are not numbers"): numeric
 * comparisons for number keys only, value tests (equals / contains / changed) for string, boolean and json keys only.
 * One function for the server (400 `RULE_OP_MISMATCH`), the console (the operators it offers) and the compiler.
 */
import { checkTelemetryValue, type TTelemetryValueType } from './telemetry-values.js';
import {
  COMPARE_OPS,
  isValueTestOp,
  VALUE_TEST_OPS_BY_TYPE,
  type TRuleValue,
  type TSimpleRuleOp,
  type TTelemetrySlot,
  type TValueTestOp,
} from './rules-program.js';

/** The simple-rule operators a key of value type `type` offers: comparisons for numbers, value tests otherwise. */
export function simpleRuleOpsFor(type: TTelemetryValueType): readonly TSimpleRuleOp[] {
  return type === 'number' ? COMPARE_OPS : VALUE_TEST_OPS_BY_TYPE[type];
}

/** A field of a rule that does not fit its key, and why (English; the console shows it as the server's message). */
export interface TRuleFieldProblem {
  field: 'op' | 'threshold' | 'value' | 'duration_s' | 'slot';
  message: string;
}

/** What {@link simpleRuleProblem} reads of a simple rule. */
export interface TSimpleRuleTest {
  key: string;
  slot: TTelemetrySlot;
  op: TSimpleRuleOp;
  threshold: number | null;
  value: TRuleValue | null;
  duration_s: number;
}

/** The fields of a rule's test of its key's value: the key, its slot, the operator and what it compares with. */
export interface TValueTestFields<Op extends string> {
  key: string;
  slot: TTelemetrySlot;
  op: Op;
  threshold: number | null;
  value: TRuleValue | null;
}

/**
 * The value-test fields `rule` will have once `change` (a PUT body) is applied: each field `change` leaves out keeps
 * the rule's; `threshold` and `value` may be cleared with null. Simple rules and app rules check what a change makes
 * of the rule, not the change alone.
 */
export function valueTestAfter<Op extends string>(change: Partial<TValueTestFields<Op>>, rule: TValueTestFields<Op>): TValueTestFields<Op> {
  return {
    key: change.key ?? rule.key,
    slot: change.slot ?? rule.slot,
    op: change.op ?? rule.op,
    threshold: change.threshold !== undefined ? change.threshold : rule.threshold,
    value: change.value !== undefined ? change.value : rule.value,
  };
}

/**
 * The first field of `rule` that does not fit its key's value type `type`, or null when it fits:
 * - number key: `op` a comparison, `threshold` set, `value` null;
 * - other key: `op` one of {@link simpleRuleOpsFor}, `slot` v1, `threshold` null; `equals` takes a value of the key's
 *   type within the telemetry bounds, `contains` a non-empty string (string key) or any value (json key: an element
 *   or the members of an object); `changed` takes no value and no duration (a change is a moment, not a state).
 * Pure.
 */
export function simpleRuleProblem(type: TTelemetryValueType, rule: TSimpleRuleTest): TRuleFieldProblem | null {
  if (type === 'number') {
    if (isValueTestOp(rule.op))
      return { field: 'op', message: `${rule.key} is a number key: "${rule.op}" tests string, boolean or json keys; use a comparison` };
    if (rule.threshold === null) return { field: 'threshold', message: `a comparison of ${rule.key} needs a threshold` };
    if (rule.value !== null) return { field: 'value', message: `a comparison of ${rule.key} takes a threshold, not a value` };
    return null;
  }
  const ops = VALUE_TEST_OPS_BY_TYPE[type];
  if (!(ops as readonly string[]).includes(rule.op))
    return { field: 'op', message: `${rule.key} holds ${type} values: its operators are ${ops.join(', ')}, not "${rule.op}"` };
  if (rule.slot !== 'v1') return { field: 'slot', message: `${rule.key} holds one value per point: the slot is v1` };
  if (rule.threshold !== null) return { field: 'threshold', message: `"${rule.op}" on ${rule.key} takes no threshold` };
  return valueTestProblem(type, rule.key, rule.op as TValueTestOp, rule.value, rule.duration_s);
}

/** The value and duration checks of a value test `op` on a key of non-numeric `type`. Pure. */
export function valueTestProblem(
  type: Exclude<TTelemetryValueType, 'number'>,
  key: string,
  op: TValueTestOp,
  value: TRuleValue | null,
  durationS = 0,
): TRuleFieldProblem | null {
  if (op === 'changed') {
    if (value !== null) return { field: 'value', message: `"changed" on ${key} takes no value` };
    if (durationS !== 0) return { field: 'duration_s', message: `"changed" is a moment: it cannot be held for a duration` };
    return null;
  }
  if (value === null) return { field: 'value', message: `"${op}" on ${key} needs a value` };
  if (op === 'contains' && type === 'string' && (typeof value !== 'string' || value === ''))
    return { field: 'value', message: `"contains" on ${key} needs a non-empty text` };
  // What the value is checked as: the key's type for equals; for contains on json, the element's own JSON type.
  const as = op === 'equals' ? type : typeof value === 'string' ? 'string' : typeof value === 'object' ? 'json' : null;
  const refusal = as === null ? null : checkTelemetryValue(key, as, value);
  return refusal ? { field: 'value', message: refusal.detail } : null;
}
