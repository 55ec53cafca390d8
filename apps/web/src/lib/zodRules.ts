/**
 * Turns a contracts zod schema into antd Form rules, so the form and the server validate with one schema
 * (STYLE.md 1). The whole form is parsed, and only the issues of the field are reported, so cross-field rules
 * (password confirmation, "new differs from old") land on their field too. Messages go through i18n.
 */
import type { FormRule } from 'antd';
import i18n from 'i18next';
import { z } from 'zod';

/**
 * Zod's own messages in the console language, set here rather than with the language at start-up (i18n/index.ts):
 * zod then loads with the first form that checks against a contract schema, not with the login page's entry chunk.
 */
function applyZodLocale(language: string | undefined): void {
  z.config(language === 'en' ? z.locales.en() : z.locales.zhTW());
}
applyZodLocale(i18n.language);
i18n.on('languageChanged', applyZodLocale);

/** A translate function (i18next's `t` fits). */
export type TTranslate = (key: string, options?: Record<string, string | number>) => string;

/** The custom messages of the contracts' schemas → their i18n keys under `validation.`. */
const MESSAGE_KEYS: Record<string, string> = {
  'needs an upper-case letter': 'validation.upper',
  'needs a lower-case letter': 'validation.lower',
  'needs a digit': 'validation.digit',
  'needs a special character': 'validation.special',
  'does not match': 'validation.mismatch',
  'must differ from the old password': 'validation.sameAsOld',
  'hex digits only': 'validation.hex',
  '6 digits': 'validation.sixDigits',
};

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The user-facing message of one zod issue for a field holding `value`. */
export function issueMessage(issue: z.core.$ZodIssue, value: unknown, t: TTranslate): string {
  const known = MESSAGE_KEYS[issue.message];
  if (known) return t(known);
  if (isEmpty(value)) return t('validation.required');
  switch (issue.code) {
    case 'too_small':
      return t('validation.min', { min: Number(issue.minimum) });
    case 'too_big':
      return t('validation.max', { max: Number(issue.maximum) });
    case 'invalid_format':
      return t(issue.format === 'email' ? 'validation.email' : 'validation.format');
    default:
      return t('validation.invalid');
  }
}

/** The first message for `field` when the form values are `values`, or null when the field is valid. */
export function fieldError(schema: z.ZodType, field: string, values: Record<string, unknown>, t: TTranslate): string | null {
  const result = schema.safeParse(values);
  if (result.success) return null;
  const issue = result.error.issues.find((i) => i.path[0] === field);
  return issue ? issueMessage(issue, values[field], t) : null;
}

/**
 * An antd rule validating `field` with `schema`. `map` turns the form's values into the schema's input when they
 * differ (e.g. a date picker into epoch ms).
 */
export function zodRule(
  schema: z.ZodType,
  field: string,
  t: TTranslate,
  map: (values: Record<string, unknown>) => Record<string, unknown> = (v) => v,
): FormRule {
  return ({ getFieldsValue }) => ({
    validator: async (_rule, value: unknown) => {
      const message = fieldError(schema, field, map({ ...getFieldsValue(true), [field]: value }), t);
      if (message) throw new Error(message);
    },
  });
}
