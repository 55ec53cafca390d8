/**
 * Add or edit a simple rule: "when key.slot op threshold (held for N s), raise an alert of level with message and
 * notify" — or, for a key whose values are not numbers, "when key equals / contains value, or changed". Validated by
 * ZSimpleRuleInput (the server's schema); the slots offered follow the sensor's values per point, the operators its
 * value type (simpleRuleOpsFor: comparisons for numbers only, value tests for the others).
 */
import {
  ALERT_LEVELS,
  isValueTestOp,
  RULE_MESSAGE_MAX,
  RULE_WINDOW_MAX_S,
  simpleRuleOpsFor,
  type TSimpleRule,
  type TSimpleRuleInput,
  type TSimpleRuleOp,
  TELEMETRY_SLOTS,
  ZSimpleRuleInput,
} from '@tessera/contracts';
import { App, Checkbox, Form, Input, InputNumber, Modal, Select, Space, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../lib/zodRules';
import { useSensors } from '../sensors/api';
import { useSaveSimpleRule } from './api';
import { COMPARE_SIGNS } from './ruleText';
import { formFieldsOfValue, ruleValueOfForm, SimpleRuleValueField, type TRuleValueFields } from './SimpleRuleValueField';

type TForm = TSimpleRuleInput & TRuleValueFields;

const DEFAULTS: Partial<TForm> = {
  slot: 'v1',
  op: 'gt',
  duration_s: 0,
  level: 'alert',
  enabled: true,
  notify_email: false,
  notify_line: false,
};

/** The modal; `rule` is the rule to edit, null to add, undefined when closed. */
export function SimpleRuleModal({
  projectId,
  rule,
  onClose,
}: {
  projectId: number;
  rule: TSimpleRule | null | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TForm>();
  const sensors = useSensors(projectId);
  const save = useSaveSimpleRule(projectId);
  const open = rule !== undefined;
  const key = Form.useWatch('key', form);
  const op: TSimpleRuleOp = Form.useWatch('op', form) ?? 'gt';
  const typeOf = (k: string | undefined) => sensors.data?.data.find((s) => s.key === k)?.value_type ?? 'number';
  const sensor = sensors.data?.data.find((s) => s.key === key);
  const valueType = sensor?.value_type ?? 'number';
  const valueCount = sensor?.value_count ?? 1;
  const ops = simpleRuleOpsFor(valueType);

  useEffect(() => {
    if (!open) return;
    if (!rule) {
      const first = sensors.data?.data[0];
      form.setFieldsValue({ ...DEFAULTS, key: first?.key, op: simpleRuleOpsFor(first?.value_type ?? 'number')[0] });
      return;
    }
    const type = sensors.data?.data.find((s) => s.key === rule.key)?.value_type ?? 'number';
    form.setFieldsValue({ ...rule, ...(type === 'number' ? {} : formFieldsOfValue(type, rule.value)) });
  }, [open, rule, form, sensors.data]);

  /** A new key: the first slot, and the first operator of its type unless the chosen one fits; no old value. */
  const onKey = (next: string) => {
    const nextOps = simpleRuleOpsFor(typeOf(next));
    form.setFieldsValue({ slot: 'v1', op: nextOps.includes(op) ? op : nextOps[0], value: null, value_text: '' });
  };

  const submit = (values: TForm) => {
    const { value_text: _text, ...fields } = values;
    const type = typeOf(values.key);
    const input =
      type === 'number'
        ? { ...fields, value: null }
        : isValueTestOp(values.op)
          ? {
              ...fields,
              threshold: null,
              value: ruleValueOfForm(type, values.op, values),
              duration_s: values.op === 'changed' ? 0 : values.duration_s,
            }
          : fields;
    save.mutate(
      { id: rule?.id ?? null, input: ZSimpleRuleInput.parse(input) },
      {
        onSuccess: () => {
          message.success(t('common.saved'));
          form.resetFields();
          onClose();
        },
        onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
      },
    );
  };
  const rules = (field: keyof TSimpleRuleInput) => [zodRule(ZSimpleRuleInput, field, t)];
  const numeric = valueType === 'number';
  return (
    <Modal
      open={open}
      title={rule ? t('projectRules.simple.edit') : t('projectRules.simple.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'simple-rule-submit' }}
      destroyOnHidden
      width={640}
    >
      <Form<TForm> form={form} layout="vertical" onFinish={submit} preserve={false} initialValues={DEFAULTS}>
        <Form.Item name="name" label={t('common.name')} rules={rules('name')}>
          <Input data-testid="simple-rule-name" />
        </Form.Item>
        <Space wrap align="start">
          <Form.Item name="key" label={t('projectRules.simple.key')} rules={rules('key')}>
            <Select
              style={{ width: 180 }}
              options={(sensors.data?.data ?? []).map((s) => ({ value: s.key, label: `${s.key} (${s.name})` }))}
              onChange={onKey}
              data-testid="simple-rule-key"
            />
          </Form.Item>
          {numeric && (
            <Form.Item name="slot" label={t('projectRules.simple.slot')} rules={rules('slot')}>
              <Select style={{ width: 80 }} options={TELEMETRY_SLOTS.slice(0, valueCount).map((s) => ({ value: s, label: s }))} />
            </Form.Item>
          )}
          <Form.Item
            name="op"
            label={t('projectRules.simple.op')}
            rules={rules('op')}
            tooltip={op === 'changed' ? t('projectRules.simple.changedHelp') : undefined}
          >
            <Select
              style={{ width: numeric ? 80 : 120 }}
              options={ops.map((o) => ({ value: o, label: isValueTestOp(o) ? t(`projectRules.simple.ops.${o}`) : COMPARE_SIGNS[o] }))}
              data-testid="simple-rule-op"
            />
          </Form.Item>
          {numeric ? (
            <Form.Item
              name="threshold"
              label={t('projectRules.simple.threshold')}
              rules={[...rules('threshold'), { required: true, message: t('projectRules.simple.valueRequired') }]}
            >
              <InputNumber style={{ width: 120 }} data-testid="simple-rule-threshold" />
            </Form.Item>
          ) : (
            isValueTestOp(op) && <SimpleRuleValueField type={valueType} op={op} />
          )}
          {op !== 'changed' && (
            <Form.Item
              name="duration_s"
              label={t('projectRules.simple.duration')}
              rules={rules('duration_s')}
              tooltip={t('projectRules.simple.durationHelp')}
            >
              <InputNumber min={0} max={RULE_WINDOW_MAX_S} style={{ width: 120 }} data-testid="simple-rule-duration" />
            </Form.Item>
          )}
        </Space>
        <Space wrap align="start">
          <Form.Item name="level" label={t('projectRules.simple.level')} rules={rules('level')}>
            <Select
              style={{ width: 160 }}
              options={ALERT_LEVELS.map((l) => ({ value: l, label: t(`projectRules.levels.${l}`) }))}
              data-testid="simple-rule-level"
            />
          </Form.Item>
          <Form.Item name="enabled" label={t('projectRules.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        <Form.Item name="message" label={t('projectRules.simple.message')} rules={rules('message')}>
          <Input maxLength={RULE_MESSAGE_MAX + 10} showCount data-testid="simple-rule-message" />
        </Form.Item>
        <Space>
          <Form.Item name="notify_email" valuePropName="checked" noStyle>
            <Checkbox data-testid="simple-rule-notify-email">{t('projectRules.simple.notifyEmail')}</Checkbox>
          </Form.Item>
          <Form.Item name="notify_line" valuePropName="checked" noStyle>
            <Checkbox data-testid="simple-rule-notify-line">{t('projectRules.simple.notifyLine')}</Checkbox>
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
