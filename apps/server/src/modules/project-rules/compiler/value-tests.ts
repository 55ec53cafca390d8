/**
 * `tessera_value_test` → a `value` condition (docs/decisions/rules.md "Keys that are not numbers"): KEY must be a
 * sensor whose values are not numbers, OP one of the tests its type offers, and VALUE — a text as typed — is read as
 * the key's type: the text itself for a string key, `true`/`false` for a boolean key, JSON for a json key.
 */
import { type TRuleCondition, type TRuleValue, VALUE_TEST_OPS, VALUE_TEST_OPS_BY_TYPE, valueTestProblem } from '@tessera/contracts';
import type { TBlockNode } from './nodes.js';
import { choiceField, fail, textField, type TScope } from './scope.js';

/** Compiles a value-test block; records every problem on it and answers null when there is one. */
export function valueTest(scope: TScope, node: TBlockNode): TRuleCondition | null {
  const key = textField(node, 'KEY');
  const sensor = scope.ctx.sensors.find((s) => s.key === key);
  if (!sensor) return fail(scope, node, 'unknown_key', `"${key}" is not a telemetry key of this project`);
  const type = sensor.value_type ?? 'number';
  if (type === 'number') return fail(scope, node, 'type_mismatch', `${key} holds numbers: compare it instead`);
  const op = choiceField(scope, node, 'OP', VALUE_TEST_OPS);
  if (op === null) return null;
  if (!VALUE_TEST_OPS_BY_TYPE[type].includes(op))
    return fail(scope, node, 'bad_operator', `${key} holds ${type} values: its tests are ${VALUE_TEST_OPS_BY_TYPE[type].join(', ')}`);
  if (op === 'changed') return { type: 'value', key, op, value: null };
  const raw = typeof node.fields.VALUE === 'string' ? node.fields.VALUE : '';
  const value = readValue(type, raw);
  if (value === undefined) return fail(scope, node, 'bad_field', `VALUE is not ${type === 'json' ? 'JSON' : 'true or false'}`);
  const problem = valueTestProblem(type, key, op, value);
  if (problem) return fail(scope, node, 'bad_field', problem.message);
  return { type: 'value', key, op, value };
}

/** VALUE read as a key of `type` holds it; undefined when it cannot be. */
function readValue(type: 'string' | 'boolean' | 'json', raw: string): TRuleValue | undefined {
  if (type === 'string') return raw;
  if (type === 'boolean') return raw.trim() === 'true' ? true : raw.trim() === 'false' ? false : undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed === null ? undefined : (parsed as TRuleValue);
  } catch {
    return undefined;
  }
}
