/**
 * Value blocks → typed values: numbers (telemetry, aggregate, literal, property), status groups and labels, and
 * conditions (compare, and/or, not, held, value tests of keys that are not numbers). Every problem is recorded on its block; compiling goes on so the console
 * can show all errors at once.
 */
import {
  AGGREGATE_FNS,
  COMPARE_OPS,
  LOGIC_OPS,
  RULE_BLOCK,
  RULE_DEPTH_MAX,
  type TRuleCondition,
  type TRuleNumExpr,
  type TStatusGroup,
  TELEMETRY_SLOTS,
} from '@tessera/contracts';
import { inputOf, readNode, type TBlockNode } from './nodes.js';
import { choiceField, fail, textField, type TScope, windowField } from './scope.js';
import { valueTest } from './value-tests.js';

/** What a value block gives. */
export type TValue =
  | { kind: 'number'; expr: TRuleNumExpr }
  | { kind: 'condition'; cond: TRuleCondition }
  | { kind: 'status'; group: TStatusGroup }
  | { kind: 'label'; label: string; node: TBlockNode };

const KIND_TEXT: Record<TValue['kind'], string> = {
  number: 'a number',
  condition: 'a condition',
  status: 'a status group',
  label: 'a status label',
};

/**
 * The value plugged into `input` of `parent`. Answers null (after recording why) when it is missing, disabled,
 * not a value block, or wrong inside; `missing_input` goes on the parent.
 */
export function valueInput(scope: TScope, parent: TBlockNode, input: string, depth: number): TValue | null {
  const node = readNode(inputOf(parent, input));
  if (!node?.enabled) return fail(scope, parent, 'missing_input', `input ${input} is empty`);
  if (depth > RULE_DEPTH_MAX) return fail(scope, node, 'too_deep', `blocks nest at most ${RULE_DEPTH_MAX} deep`);
  return compileValue(scope, node, depth);
}

/** Like {@link valueInput}, but the value must be a condition (type_mismatch on the child otherwise). */
export function conditionInput(scope: TScope, parent: TBlockNode, input: string, depth: number): TRuleCondition | null {
  const node = readNode(inputOf(parent, input));
  const v = valueInput(scope, parent, input, depth);
  if (v === null || v.kind === 'condition') return v?.cond ?? null;
  return fail(scope, node, 'type_mismatch', `expected a condition here, not ${KIND_TEXT[v.kind]}`);
}

/** Like {@link valueInput}, but the value must be a number. */
export function numberInput(scope: TScope, parent: TBlockNode, input: string, depth: number): TRuleNumExpr | null {
  const node = readNode(inputOf(parent, input));
  const v = valueInput(scope, parent, input, depth);
  if (v === null || v.kind === 'number') return v?.expr ?? null;
  return fail(scope, node, 'type_mismatch', `expected a number here, not ${KIND_TEXT[v.kind]}`);
}

function compileValue(scope: TScope, node: TBlockNode, depth: number): TValue | null {
  const number = (expr: TRuleNumExpr | null): TValue | null => (expr ? { kind: 'number', expr } : null);
  const condition = (cond: TRuleCondition | null): TValue | null => (cond ? { kind: 'condition', cond } : null);
  switch (node.type) {
    case RULE_BLOCK.number: {
      const value = node.fields.NUM;
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail(scope, node, 'bad_number', 'not a finite number');
      return { kind: 'number', expr: { type: 'number', value } };
    }
    case RULE_BLOCK.telemetry:
      return number(telemetry(scope, node));
    case RULE_BLOCK.aggregate:
      return number(aggregate(scope, node));
    case RULE_BLOCK.property: {
      const name = textField(node, 'NAME');
      if (!scope.ctx.properties.includes(name))
        return fail(scope, node, 'unknown_property', `no property "${name}" in the blockly setting`);
      return { kind: 'number', expr: { type: 'property', name } };
    }
    case RULE_BLOCK.status: {
      const name = textField(node, 'GROUP');
      const group = scope.ctx.statusGroups.find((g) => g.name === name);
      if (!group) return fail(scope, node, 'unknown_status_group', `no status group "${name}" in the project`);
      return { kind: 'status', group };
    }
    case RULE_BLOCK.statusLabel: {
      const label = textField(node, 'LABEL');
      if (!label) return fail(scope, node, 'bad_field', 'the label is empty');
      return { kind: 'label', label, node };
    }
    case RULE_BLOCK.compare:
      return condition(compare(scope, node, depth));
    case RULE_BLOCK.logic:
      return condition(logic(scope, node, depth));
    case RULE_BLOCK.valueTest:
      return condition(valueTest(scope, node));
    case RULE_BLOCK.not: {
      const inner = conditionInput(scope, node, 'A', depth + 1);
      return condition(inner && { type: 'not', condition: inner });
    }
    case RULE_BLOCK.held: {
      const inner = conditionInput(scope, node, 'A', depth + 1);
      const forS = windowField(scope, node);
      return condition(inner && forS !== null ? { type: 'held', condition: inner, for_s: forS } : null);
    }
    default:
      if ((Object.values(RULE_BLOCK) as string[]).includes(node.type)) {
        return fail(scope, node, 'type_mismatch', 'an action or rule cannot be used as a value');
      }
      return fail(scope, node, 'unknown_block', `unknown block type ${node.type}`);
  }
}

/** KEY and SLOT: one of the project's number sensors, and a slot within its values per point. */
function keySlot(scope: TScope, node: TBlockNode): { key: string; slot: (typeof TELEMETRY_SLOTS)[number] } | null {
  const key = textField(node, 'KEY');
  const slot = choiceField(scope, node, 'SLOT', TELEMETRY_SLOTS);
  const sensor = scope.ctx.sensors.find((s) => s.key === key);
  if (!sensor) return fail(scope, node, 'unknown_key', `"${key}" is not a telemetry key of this project`);
  if (sensor.value_type !== undefined && sensor.value_type !== 'number') {
    return fail(
      scope,
      node,
      'type_mismatch',
      `${key} holds ${sensor.value_type} values, not numbers: test it with a simple rule (equals, contains, changed)`,
    );
  }
  if (slot === null) return null;
  if (TELEMETRY_SLOTS.indexOf(slot) >= sensor.value_count) {
    return fail(scope, node, 'slot_out_of_range', `${key} carries ${sensor.value_count} value(s); ${slot} does not exist`);
  }
  return { key, slot };
}

function telemetry(scope: TScope, node: TBlockNode): TRuleNumExpr | null {
  const ks = keySlot(scope, node);
  return ks && { type: 'telemetry', ...ks };
}

function aggregate(scope: TScope, node: TBlockNode): TRuleNumExpr | null {
  const fn = choiceField(scope, node, 'FN', AGGREGATE_FNS);
  const ks = keySlot(scope, node);
  const windowS = windowField(scope, node);
  return fn && ks && windowS !== null ? { type: 'aggregate', fn, ...ks, window_s: windowS } : null;
}

function logic(scope: TScope, node: TBlockNode, depth: number): TRuleCondition | null {
  const op = choiceField(scope, node, 'OP', LOGIC_OPS);
  const a = conditionInput(scope, node, 'A', depth + 1);
  const b = conditionInput(scope, node, 'B', depth + 1);
  if (!op || !a || !b) return null;
  // (x and y) and z is one "and" of three: the tree stays flat however the blocks were stacked.
  const parts = [a, b].flatMap((c) => (c.type === op ? c.conditions : [c]));
  return op === 'and' ? { type: 'and', conditions: parts } : { type: 'or', conditions: parts };
}

function compare(scope: TScope, node: TBlockNode, depth: number): TRuleCondition | null {
  const op = choiceField(scope, node, 'OP', COMPARE_OPS);
  const a = valueInput(scope, node, 'A', depth + 1);
  const b = valueInput(scope, node, 'B', depth + 1);
  if (!op || !a || !b) return null;
  if (a.kind === 'number' && b.kind === 'number') return { type: 'compare', op, left: a.expr, right: b.expr };
  const status = a.kind === 'status' ? a : b.kind === 'status' ? b : null;
  const label = a.kind === 'label' ? a : b.kind === 'label' ? b : null;
  if (!status || !label) return fail(scope, node, 'type_mismatch', `${KIND_TEXT[a.kind]} cannot be compared with ${KIND_TEXT[b.kind]}`);
  if (op !== 'eq' && op !== 'neq') return fail(scope, node, 'bad_operator', 'a status group is only equal (=) or not equal (≠) to a label');
  const value = status.group.values.find((v) => v.label === label.label);
  if (!value) return fail(scope, label.node, 'unknown_label', `"${label.label}" is not a label of status group ${status.group.name}`);
  const g = status.group;
  return { type: 'status', group: g.name, index: g.index, length: g.bytesLength, op, value: value.value, label: value.label };
}
