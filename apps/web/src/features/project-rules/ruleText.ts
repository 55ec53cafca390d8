/** Short texts of rules for tables (pure, so they are unit-tested). */
import { isValueTestOp, type TCompareOp, type TRuleValue, type TSimpleRule } from '@tessera/contracts';
import type { TTranslate } from '../../lib/zodRules';

/** The sign shown for each comparison operator. */
export const COMPARE_SIGNS: Record<TCompareOp, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=', neq: '≠' };

/** A value test's value as the rule shows it: a text in quotes, true/false, JSON compact. */
export function ruleValueText(value: TRuleValue | null): string {
  return value === null ? '' : JSON.stringify(value);
}

/**
 * "temperature.v1 > 30", or for a key whose values are not numbers `state equals "fault"` / `door changed`, plus
 * "for 60 s" when the rule has a duration.
 */
export function simpleRuleCondition(
  rule: Pick<TSimpleRule, 'key' | 'slot' | 'op' | 'threshold' | 'value' | 'duration_s'>,
  t: TTranslate,
): string {
  const { op } = rule;
  const base = isValueTestOp(op)
    ? `${rule.key} ${t(`projectRules.simple.ops.${op}`)} ${ruleValueText(rule.value)}`.trimEnd()
    : `${rule.key}.${rule.slot} ${COMPARE_SIGNS[op]} ${rule.threshold ?? ''}`;
  return rule.duration_s > 0 ? `${base} ${t('projectRules.simple.forSeconds', { seconds: rule.duration_s })}` : base;
}

/** The channels a simple rule notifies, e.g. "Email, LINE" (empty when none). */
export function simpleRuleChannels(rule: Pick<TSimpleRule, 'notify_email' | 'notify_line'>, t: TTranslate): string {
  return [rule.notify_email && t('projectRules.channels.email'), rule.notify_line && t('projectRules.channels.line')]
    .filter(Boolean)
    .join(', ');
}
