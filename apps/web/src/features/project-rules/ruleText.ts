/** Short texts of rules for tables (pure, so they are unit-tested). */
import type { TCompareOp, TSimpleRule } from '@tessera/contracts';
import type { TTranslate } from '../../lib/zodRules';

/** The sign shown for each comparison operator. */
export const COMPARE_SIGNS: Record<TCompareOp, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=', neq: '≠' };

/** "temperature.v1 > 30", plus "for 60 s" when the rule has a duration. */
export function simpleRuleCondition(rule: Pick<TSimpleRule, 'key' | 'slot' | 'op' | 'threshold' | 'duration_s'>, t: TTranslate): string {
  const base = `${rule.key}.${rule.slot} ${COMPARE_SIGNS[rule.op]} ${rule.threshold}`;
  return rule.duration_s > 0 ? `${base} ${t('projectRules.simple.forSeconds', { seconds: rule.duration_s })}` : base;
}

/** The channels a simple rule notifies, e.g. "Email, LINE" (empty when none). */
export function simpleRuleChannels(rule: Pick<TSimpleRule, 'notify_email' | 'notify_line'>, t: TTranslate): string {
  return [rule.notify_email && t('projectRules.channels.email'), rule.notify_line && t('projectRules.channels.line')]
    .filter(Boolean)
    .join(', ');
}
