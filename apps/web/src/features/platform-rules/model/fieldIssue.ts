/**
 * A node field's schema problem said the way a person would, in the reader's language (`platformRules.issues.*`):
 * from a zod issue in the editor's own check (NodeForm) or from the parameters the server stored with an
 * `invalid_field` problem (rule-service.ts `issueParams`: zod's issue code, the bound and what it bounds).
 */
import type { TFunction } from 'i18next';

/** What is known of one schema problem: zod's issue code, its English message, and its bound or format. */
export interface TFieldIssue {
  issue?: string;
  message?: string;
  minimum?: number;
  maximum?: number;
  /** What the bound counts: `string` (characters), `number`, `array` (items), … */
  origin?: string;
  format?: string;
}

/** The contracts' own messages of the flow's schema (platform-rules.ts refinements) → their keys. */
const MESSAGE_KEYS: Record<string, string> = {
  'choose the key': 'chooseKey',
  'choose the platform telemetry': 'choosePlatformTelemetry',
  'choose email, LINE or both': 'chooseChannel',
  'the schedule must start before it ends': 'scheduleOrder',
  'the active range must start before it ends': 'activeRangeOrder',
};

/** The sentence for `issue`. */
export function fieldIssueText(t: TFunction, issue: TFieldIssue): string {
  const key = (name: string, params: Record<string, unknown> = {}) => t(`platformRules.issues.${name}`, params);
  const known = issue.message ? MESSAGE_KEYS[issue.message] : undefined;
  if (known) return key(known);
  const count = issue.origin === 'string' ? 'Length' : issue.origin === 'array' || issue.origin === 'set' ? 'Items' : 'Number';
  switch (issue.issue) {
    case 'invalid_type':
      return key('required');
    case 'too_small':
      return count === 'Length' && issue.minimum === 1 ? key('required') : key(`min${count}`, { min: issue.minimum });
    case 'too_big':
      return key(`max${count}`, { max: issue.maximum });
    case 'invalid_value':
      return key('choose');
    case 'invalid_format':
      return key('format');
    default:
      return key('invalid');
  }
}
