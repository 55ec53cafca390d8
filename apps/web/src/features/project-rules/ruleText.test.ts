import { describe, expect, it } from 'vitest';
import { simpleRuleChannels, simpleRuleCondition } from './ruleText';

const t = (key: string, o?: Record<string, string | number>) => (o ? `${key}:${JSON.stringify(o)}` : key);

describe('rule texts', () => {
  it('shows the comparison with its sign, and the duration when there is one', () => {
    const rule = { key: 'temperature', slot: 'v1' as const, op: 'gte' as const, threshold: 30.5, value: null, duration_s: 0 };
    expect(simpleRuleCondition(rule, t)).toBe('temperature.v1 ≥ 30.5');
    expect(simpleRuleCondition({ ...rule, op: 'neq', duration_s: 60 }, t)).toBe(
      'temperature.v1 ≠ 30.5 projectRules.simple.forSeconds:{"seconds":60}',
    );
  });
  it('shows a value test by its translated operator and the value as JSON', () => {
    const rule = { key: 'state', slot: 'v1' as const, threshold: null, duration_s: 0 };
    expect(simpleRuleCondition({ ...rule, op: 'equals', value: 'fault' }, t)).toBe('state projectRules.simple.ops.equals "fault"');
    expect(simpleRuleCondition({ ...rule, op: 'contains', value: { mode: 'auto' } }, t)).toBe(
      'state projectRules.simple.ops.contains {"mode":"auto"}',
    );
    expect(simpleRuleCondition({ ...rule, op: 'changed', value: null }, t)).toBe('state projectRules.simple.ops.changed');
  });
  it('lists the notified channels', () => {
    expect(simpleRuleChannels({ notify_email: true, notify_line: true }, t)).toBe(
      'projectRules.channels.email, projectRules.channels.line',
    );
    expect(simpleRuleChannels({ notify_email: false, notify_line: false }, t)).toBe('');
  });
});
