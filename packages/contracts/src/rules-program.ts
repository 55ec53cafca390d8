/**
 * The rule program: a typed JSON syntax tree that a project rule compiles to (spec §4 "Blockly programs can be
 * compiled", §3 alert node types). It is data, never code: the rule engine (next issue) walks it, nothing evaluates
 * JavaScript. Blockly programs compile to it on the server; a simple rule maps to it with {@link simpleRuleToProgram}.
 * Semantics (level vs edge, windows, missing data): docs/decisions/rules.md.
 *
 * ```
 * program   = { version: 1, rules: rule[1..20] }
 * rule      = { block_id, condition, actions: action[1..10], clear_after_s? }
 * condition = compare | status | value | and | or | not | held
 * numExpr   = telemetry | number | property | aggregate
 * action    = alert | notify | command
 * ```
 */
import { z } from 'zod';
import { ALERT_LEVELS } from './alert-values.js';
import { ZTelemetryKey } from './telemetry.js';
import type { TNonNumericValueType } from './telemetry-values.js';

/** The version of the tree below; a later shape gets a new number and the engine refuses what it does not know. */
export const RULE_PROGRAM_VERSION = 1;
/** Rules (top-level "when … then …") in one program. */
export const RULES_PER_PROGRAM_MAX = 20;
/** Actions in one rule. */
export const RULE_ACTIONS_MAX = 10;
/** Nesting depth of conditions and expressions (the tree stays small and the engine's recursion bounded). */
export const RULE_DEPTH_MAX = 16;
/** Time windows (held for, aggregate over the last …), in whole seconds: 1 s to 24 h. */
export const RULE_WINDOW_MIN_S = 1;
export const RULE_WINDOW_MAX_S = 86_400;
/** Alert and notification message length. */
export const RULE_MESSAGE_MAX = 200;
/** Blockly-setting property name length. */
export const RULE_PROPERTY_NAME_MAX = 32;
/** Device command name: 1–32 of `[A-Za-z0-9_.-]`, starting with a letter. */
export const RULE_COMMAND_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,31}$/;

/** §3 live messages: a point carries up to three values, v1..v3. */
export const TELEMETRY_SLOTS = ['v1', 'v2', 'v3'] as const;
/** Numeric comparisons: >, ≥, <, ≤, =, ≠. */
export const COMPARE_OPS = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq'] as const;
/** A status group can only be equal or not equal to one of its labels. */
export const STATUS_OPS = ['eq', 'neq'] as const;
/** Aggregates over a past window (a subset of the platform-rule aggregations of §3). */
export const AGGREGATE_FNS = ['avg', 'min', 'max', 'count'] as const;
export { ALERT_LEVELS };
/** Where a notification goes: the project's notification email list, or its LINE group. */
export const NOTIFY_CHANNELS = ['email', 'line'] as const;

/**
 * Tests on the value of a non-numeric key (string, boolean, json; docs/decisions/rules.md "Keys that are not
 * numbers"): `equals` a given value (JSON compared structurally), `contains` (a substring of a string; an element of a
 * JSON array; the members of a JSON object), `changed` (differs from the device's previous value of the key).
 */
export const VALUE_TEST_OPS = ['equals', 'contains', 'changed'] as const;
/** The value tests each non-numeric value type offers (a boolean contains nothing). */
export const VALUE_TEST_OPS_BY_TYPE: Readonly<Record<TNonNumericValueType, readonly TValueTestOp[]>> = {
  string: ['equals', 'contains', 'changed'],
  boolean: ['equals', 'changed'],
  json: ['equals', 'contains', 'changed'],
};

export type TTelemetrySlot = (typeof TELEMETRY_SLOTS)[number];
export type TValueTestOp = (typeof VALUE_TEST_OPS)[number];
export type TCompareOp = (typeof COMPARE_OPS)[number];
export type TAlertLevel = (typeof ALERT_LEVELS)[number];

/** A window length in whole seconds, {@link RULE_WINDOW_MIN_S}..{@link RULE_WINDOW_MAX_S}. */
export const ZRuleWindowS = z.number().int().min(RULE_WINDOW_MIN_S).max(RULE_WINDOW_MAX_S);
/** A blockly-setting property name (trimmed, 1–32 characters). */
export const ZRulePropertyName = z.string().trim().min(1).max(RULE_PROPERTY_NAME_MAX);
/** An alert or notification text (trimmed, 1–200 characters). */
export const ZRuleMessage = z.string().trim().min(1).max(RULE_MESSAGE_MAX);
/**
 * The value a value test compares with: a string, a number, a boolean, or a JSON array or object (a number or a
 * string may also be an element a JSON array contains). Not recursive in the schema (the OpenAPI document).
 */
export const ZRuleValue = z.union([z.string(), z.number().finite(), z.boolean(), z.array(z.unknown()), z.record(z.string(), z.unknown())]);
export type TRuleValue = z.infer<typeof ZRuleValue>;
/** A device command name. */
export const ZRuleCommandName = z.string().regex(RULE_COMMAND_NAME_PATTERN);

/**
 * A numeric expression:
 * - `telemetry`: the latest value `slot` of telemetry `key` of the device being evaluated;
 * - `number`: a literal;
 * - `property`: a blockly-setting property of the project, read when the rule is evaluated (so editing the setting
 *   moves thresholds without recompiling);
 * - `aggregate`: `fn` of `key`'s `slot` over the points of the last `window_s` seconds (`count` counts points).
 */
export const ZRuleNumExpr = z.discriminatedUnion('type', [
  z.object({ type: z.literal('telemetry'), key: ZTelemetryKey, slot: z.enum(TELEMETRY_SLOTS) }),
  z.object({ type: z.literal('number'), value: z.number().finite() }),
  z.object({ type: z.literal('property'), name: ZRulePropertyName }),
  z.object({
    type: z.literal('aggregate'),
    fn: z.enum(AGGREGATE_FNS),
    key: ZTelemetryKey,
    slot: z.enum(TELEMETRY_SLOTS),
    window_s: ZRuleWindowS,
  }),
]);
export type TRuleNumExpr = z.infer<typeof ZRuleNumExpr>;

/**
 * A condition (true or false for one device at one moment):
 * - `compare`: `left op right` on numbers;
 * - `value`: a test on the latest value of non-numeric telemetry `key` — `equals` / `contains` `value`, or `changed`
 *   (the device's newest point of the key differs from the one before it; `value` is null);
 * - `status`: the status group `group` (bits `index`..`index+length-1` of the 40-bit word, counted from the right,
 *   §4) equals (`eq`) or differs from (`neq`) raw `value`, whose label is `label` (kept for messages);
 * - `and` / `or`: all / any of two or more conditions;
 * - `not`: the negation;
 * - `held`: `condition` has been true without a break for the last `for_s` seconds.
 */
export type TRuleCondition =
  | { type: 'compare'; op: TCompareOp; left: TRuleNumExpr; right: TRuleNumExpr }
  | { type: 'status'; group: string; index: number; length: number; op: 'eq' | 'neq'; value: number; label: string }
  | { type: 'value'; key: string; op: TValueTestOp; value: TRuleValue | null }
  | { type: 'and'; conditions: TRuleCondition[] }
  | { type: 'or'; conditions: TRuleCondition[] }
  | { type: 'not'; condition: TRuleCondition }
  | { type: 'held'; condition: TRuleCondition; for_s: number };

/** The schema of {@link TRuleCondition}. */
export const ZRuleCondition: z.ZodType<TRuleCondition> = z
  .lazy(
    () =>
      z.discriminatedUnion('type', [
        z.object({ type: z.literal('compare'), op: z.enum(COMPARE_OPS), left: ZRuleNumExpr, right: ZRuleNumExpr }),
        z.object({
          type: z.literal('status'),
          group: z.string().min(1),
          index: z.number().int().min(0).max(39),
          length: z.number().int().min(1).max(16),
          op: z.enum(STATUS_OPS),
          value: z.number().int().min(0),
          label: z.string(),
        }),
        z.object({ type: z.literal('value'), key: ZTelemetryKey, op: z.enum(VALUE_TEST_OPS), value: ZRuleValue.nullable() }),
        z.object({ type: z.literal('and'), conditions: z.array(ZRuleCondition).min(2) }),
        z.object({ type: z.literal('or'), conditions: z.array(ZRuleCondition).min(2) }),
        z.object({ type: z.literal('not'), condition: ZRuleCondition }),
        z.object({ type: z.literal('held'), condition: ZRuleCondition, for_s: ZRuleWindowS }),
      ]),
    // An id makes the OpenAPI document reference one RuleCondition component instead of an unresolvable inline cycle.
  )
  .meta({ id: 'RuleCondition' });

/**
 * An action, run when its rule fires (level or edge, per the project's rule type):
 * - `alert`: raise an alert of `level` with `message` for the device;
 * - `notify`: send `message` to the project's notification email list or its LINE group;
 * - `command`: send device command `name` (`devices/{id}/commands/{reqId}`, docs/protocol.md) with
 *   `params: { value }` when `value` is set (evaluated when the rule fires), else `params: {}`.
 */
export const ZRuleAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('alert'), level: z.enum(ALERT_LEVELS), message: ZRuleMessage }),
  z.object({ type: z.literal('notify'), channel: z.enum(NOTIFY_CHANNELS), message: ZRuleMessage }),
  z.object({ type: z.literal('command'), name: ZRuleCommandName, value: ZRuleNumExpr.nullable() }),
]);
export type TRuleAction = z.infer<typeof ZRuleAction>;

/**
 * One rule: when `condition` holds, run `actions` in order. `block_id` is the Blockly block it came from (null: a
 * simple rule). `clear_after_s` (hysteresis, docs/rules.md "Clearing"): once the rule is active it clears only after
 * its condition has been not-true for that many seconds without a break; absent, the first definite false clears it.
 */
export const ZRule = z.object({
  block_id: z.string().nullable(),
  condition: ZRuleCondition,
  actions: z.array(ZRuleAction).min(1).max(RULE_ACTIONS_MAX),
  clear_after_s: ZRuleWindowS.optional(),
});
export type TRule = z.infer<typeof ZRule>;

/** A compiled rule program. */
export const ZRuleProgram = z.object({
  version: z.literal(RULE_PROGRAM_VERSION),
  rules: z.array(ZRule).min(1).max(RULES_PER_PROGRAM_MAX),
});
export type TRuleProgram = z.infer<typeof ZRuleProgram>;

/** The operators of a simple rule: a comparison of a number key, or a test of a non-numeric key's value. */
export const SIMPLE_RULE_OPS = [...COMPARE_OPS, ...VALUE_TEST_OPS] as const;
export type TSimpleRuleOp = (typeof SIMPLE_RULE_OPS)[number];

/** Whether `op` is a value test (`equals`, `contains`, `changed`) rather than a numeric comparison. */
export function isValueTestOp(op: TSimpleRuleOp): op is TValueTestOp {
  return (VALUE_TEST_OPS as readonly string[]).includes(op);
}

/** What {@link simpleRuleToProgram} needs of a simple rule. */
export interface TSimpleRuleShape {
  key: string;
  slot: TTelemetrySlot;
  op: TSimpleRuleOp;
  /** The threshold of a comparison (null for a value test). */
  threshold: number | null;
  /** The value of `equals` / `contains` (null for a comparison and for `changed`). */
  value: TRuleValue | null;
  duration_s: number;
  level: TAlertLevel;
  message: string;
  notify_email: boolean;
  notify_line: boolean;
}

/**
 * The program of a simple rule, so the engine evaluates simple rules and Blockly programs alike: `key.slot op
 * threshold` — or the value test `key op value` — (held for `duration_s` when above 0) raises an alert of `level`,
 * then notifies the chosen channels. `duration_s` debounces both ways: the alert also clears only after the
 * condition has not held for `duration_s` (`clear_after_s`), so a noisy value around the threshold opens one alert,
 * not one per crossing. Pure.
 */
export function simpleRuleToProgram(rule: TSimpleRuleShape): TRuleProgram {
  const test: TRuleCondition = isValueTestOp(rule.op)
    ? { type: 'value', key: rule.key, op: rule.op, value: rule.op === 'changed' ? null : rule.value }
    : {
        type: 'compare',
        op: rule.op,
        left: { type: 'telemetry', key: rule.key, slot: rule.slot },
        // The server stores no comparison without a threshold; NaN would be unknown (never fires).
        right: { type: 'number', value: rule.threshold ?? Number.NaN },
      };
  const actions: TRuleAction[] = [{ type: 'alert', level: rule.level, message: rule.message }];
  if (rule.notify_email) actions.push({ type: 'notify', channel: 'email', message: rule.message });
  if (rule.notify_line) actions.push({ type: 'notify', channel: 'line', message: rule.message });
  if (rule.duration_s === 0) return { version: RULE_PROGRAM_VERSION, rules: [{ block_id: null, condition: test, actions }] };
  const condition: TRuleCondition = { type: 'held', condition: test, for_s: rule.duration_s };
  return { version: RULE_PROGRAM_VERSION, rules: [{ block_id: null, condition, actions, clear_after_s: rule.duration_s }] };
}
