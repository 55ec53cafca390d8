/**
 * App rules (`device_user_rules`; docs/decisions/device-control.md "App rules") are rules too: a user's "notify me
 * when key.slot op threshold" for one device becomes the same rule program as a simple rule, so one evaluator runs
 * both. It raises an alert of its level; the owner alone is notified, and `cooldown_s` is its own level-trigger
 * repeat interval (docs/rules.md "App rules").
 */
import { simpleRuleToProgram, type TAlertLevel, type TCompareOp, type TRuleProgram, type TTelemetrySlot } from '@tessera/contracts';

/** What the engine reads of an app rule. */
export interface TAppRuleShape {
  name: string;
  key: string;
  slot: TTelemetrySlot;
  op: TCompareOp;
  threshold: number;
  level: TAlertLevel;
}

const OP_SIGNS = new Map<TCompareOp, string>([
  ['gt', '>'],
  ['gte', '≥'],
  ['lt', '<'],
  ['lte', '≤'],
  ['eq', '='],
  ['neq', '≠'],
]);

/** The alert message of an app rule: its condition, e.g. `temperature.v1 > 30` (language-neutral). */
export function appRuleMessage(rule: TAppRuleShape): string {
  return `${rule.key}.${rule.slot} ${OP_SIGNS.get(rule.op) ?? rule.op} ${rule.threshold}`;
}

/** The program of an app rule: `key.slot op threshold` raises an alert of `level` (no project channels). */
export function appRuleToProgram(rule: TAppRuleShape): TRuleProgram {
  return simpleRuleToProgram({
    key: rule.key,
    slot: rule.slot,
    op: rule.op,
    threshold: rule.threshold,
    value: null,
    duration_s: 0,
    level: rule.level,
    message: appRuleMessage(rule),
    notify_email: false,
    notify_line: false,
  });
}
