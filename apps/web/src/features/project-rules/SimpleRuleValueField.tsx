/**
 * The value a simple rule on a key that is not a number compares with (docs/decisions/rules.md "Keys that are not
 * numbers"): a text for a string key, true/false for a boolean key, JSON text for a json key (parsed on submit by
 * {@link ruleValueOfForm}). `changed` takes no value, so nothing is shown for it.
 */
import type { TNonNumericValueType, TRuleValue, TValueTestOp } from '@tessera/contracts';
import { Form, Input, Select } from 'antd';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';

/** The form fields of a value: `value` (text or boolean), or `value_text` (JSON as typed). */
export interface TRuleValueFields {
  value?: TRuleValue | null;
  value_text?: string;
}

/** The rule's value of the form's fields for a key of `type` and operator `op` (null for `changed`). Pure. */
export function ruleValueOfForm(type: TNonNumericValueType, op: TValueTestOp, fields: TRuleValueFields): TRuleValue | null {
  if (op === 'changed') return null;
  if (type === 'json') return JSON.parse(fields.value_text ?? '') as TRuleValue;
  return fields.value ?? null;
}

/** The form fields that show `value` of a rule on a key of `type`. Pure. */
export function formFieldsOfValue(type: TNonNumericValueType, value: TRuleValue | null): TRuleValueFields {
  if (type === 'json') return { value_text: value === null ? '' : JSON.stringify(value) };
  return { value };
}

/**
 * The value input for a key of `type` and operator `op` (also the app-rule form's); `testId` names the input for
 * tests (default `simple-rule-value`).
 */
export function SimpleRuleValueField({
  type,
  op,
  testId = 'simple-rule-value',
}: {
  type: TNonNumericValueType;
  op: TValueTestOp;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (op === 'changed') return null;
  const required: FormRule = { required: true, message: t('projectRules.simple.valueRequired') };
  const label = t('projectRules.simple.value');
  const help = t(`projectRules.simple.valueHelp.${type}`);
  if (type === 'boolean') {
    return (
      <Form.Item name="value" label={label} rules={[required]} tooltip={help}>
        <Select
          style={{ width: 120 }}
          data-testid={testId}
          options={[
            { value: true, label: t('projectRules.simple.true') },
            { value: false, label: t('projectRules.simple.false') },
          ]}
        />
      </Form.Item>
    );
  }
  if (type === 'string') {
    return (
      <Form.Item name="value" label={label} rules={[required]} tooltip={help}>
        <Input style={{ width: 240 }} data-testid={testId} />
      </Form.Item>
    );
  }
  const json: FormRule = {
    validator: async (_, text: string | undefined) => {
      if (!text) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(t('projectRules.simple.badJson'));
      }
      if (op === 'equals' && (typeof parsed !== 'object' || parsed === null)) throw new Error(t('projectRules.simple.jsonObjectOrArray'));
    },
  };
  return (
    <Form.Item name="value_text" label={label} rules={[required, json]} tooltip={help}>
      <Input.TextArea autoSize={{ minRows: 1, maxRows: 6 }} style={{ width: 320 }} data-testid={testId} />
    </Form.Item>
  );
}
