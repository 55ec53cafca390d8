/**
 * Messages for the role form, from the contracts' ZProjectRoleInput (one schema for the form and the server).
 * The list fields get their own words ("choose at least one permission", "this email is twice") instead of the
 * generic character-count messages of zodRules.
 */
import { ZMachineRoleInput, ZProjectRoleInput } from '@tessera/contracts';
import type { FormRule } from 'antd';
import { issueMessage, type TTranslate } from '../../lib/zodRules';

/** The fields of the role form. */
export type TRoleField = 'name' | 'permissions' | 'device_ids' | 'machine_ids' | 'member_emails';

/** The first message for `field` holding `value`, or null when it is valid. */
export function roleFieldError(field: TRoleField, value: unknown, t: TTranslate): string | null {
  const schema = field === 'machine_ids' ? ZMachineRoleInput.shape.machine_ids : ZProjectRoleInput.shape[field];
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error.issues[0];
  if (field === 'name') return issueMessage(issue, value, t);
  const at = typeof issue.path[0] === 'number' ? issue.path[0] : -1;
  const item = Array.isArray(value) && at >= 0 ? String(value[at]) : '';
  switch (issue.code) {
    case 'too_small':
      return t(`projectRoles.rules.${field}.min`);
    case 'too_big':
      return t('projectRoles.rules.max', { max: Number(issue.maximum) });
    case 'custom':
      return t('projectRoles.rules.duplicate', { item });
    default:
      return field === 'member_emails' ? t('projectRoles.rules.email', { item }) : t('validation.invalid');
  }
}

/** An antd rule checking `field` with {@link roleFieldError}. */
export function roleRule(field: TRoleField, t: TTranslate): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const message = roleFieldError(field, value ?? (field === 'name' ? '' : []), t);
      if (message) throw new Error(message);
    },
  };
}
