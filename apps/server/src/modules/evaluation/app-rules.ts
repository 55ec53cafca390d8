/**
 * App rules (`device_user_rules`; docs/decisions/device-control.md "App rules") are rules too: a user's "notify me
 * when key.slot op threshold" — or, on a key whose values are not numbers, "when key equals / contains value, or
 * changed" (docs/decisions/rules.md "Keys that are not numbers") — for one device becomes the same rule program as a
 * simple rule, so one evaluator runs both. It raises an alert of its level; the owner alone is notified, and
 * `cooldown_s` is its own level-trigger repeat interval (docs/rules.md "App rules").
 */
import {
  isValueTestOp,
  simpleRuleToProgram,
  type TAlertLevel,
  type TRuleProgram,
  type TRuleValue,
  type TSimpleRuleOp,
  type TTelemetrySlot,
} from '@tessera/contracts';

/** What the engine reads of an app rule (`threshold` null for a value test, `value` null but for equals / contains). */
export interface TAppRuleShape {
  name: string;
  key: string;
  slot: TTelemetrySlot;
  op: TSimpleRuleOp;
  threshold: number | null;
  value: TRuleValue | null;
  level: TAlertLevel;
}

const OP_SIGNS: Readonly<Record<TSimpleRuleOp, string>> = {
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  eq: '=',
  neq: '≠',
  equals: 'equals',
  contains: 'contains',
  changed: 'changed',
};

/**
 * The alert message of an app rule: its condition, language-neutral — `temperature.v1 > 30` for a comparison,
 * `state equals "fault"`, `config contains {"mode":"auto"}` or `state changed` for a value test (the value as JSON).
 */
export function appRuleMessage(rule: TAppRuleShape): string {
  if (isValueTestOp(rule.op)) return `${rule.key} ${OP_SIGNS[rule.op]}${rule.value === null ? '' : ` ${JSON.stringify(rule.value)}`}`;
  return `${rule.key}.${rule.slot} ${OP_SIGNS[rule.op]} ${rule.threshold}`;
}

/** The program of an app rule: its condition raises an alert of `level` (no project channels, never held). */
export function appRuleToProgram(rule: TAppRuleShape): TRuleProgram {
  return simpleRuleToProgram({
    key: rule.key,
    slot: rule.slot,
    op: rule.op,
    threshold: rule.threshold,
    value: rule.value,
    duration_s: 0,
    level: rule.level,
    message: appRuleMessage(rule),
    notify_email: false,
    notify_line: false,
  });
}
