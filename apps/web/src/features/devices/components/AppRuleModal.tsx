/**
 * Add or edit an app rule (spec §7 devices `userRules`): "notify me when key[.slot] op threshold" — or, for a key whose
 * values are not numbers, "when key equals / contains value, or changed" — with the alert level, a quiet time after
 * it fired, and on/off. Validated by the contracts' ZUserRuleInput; the operators offered follow the key's value type
 * (simpleRuleOpsFor, the function the server's userRuleProblem check agrees with).
 */
import {
  isValueTestOp,
  simpleRuleOpsFor,
  type TDeviceDetail,
  type TUserRule,
  type TUserRuleInput,
  type TUserRuleOp,
  USER_RULE_COOLDOWN_MAX_S,
  USER_RULE_LEVELS,
  USER_RULE_SLOTS,
  ZUserRuleInput,
} from '@tessera/contracts';
import { Form, Input, InputNumber, Modal, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/zodRules';
import { formFieldsOfValue, ruleValueOfForm, SimpleRuleValueField, type TRuleValueFields } from '../../project-rules/SimpleRuleValueField';
import { OP_SYMBOL } from '../model/control';

interface TProps {
  device: TDeviceDetail;
  /** The rule being edited, or null to add one. */
  rule: TUserRule | null;
  open: boolean;
  saving: boolean;
  onClose: () => void;
  onSave: (body: TUserRuleInput) => void;
}

type TForm = TUserRuleInput & TRuleValueFields;

const DEFAULTS: Partial<TForm> = { slot: 'v1', level: 'remind', enabled: true, cooldown_s: 300 };

/** The rule form in a modal. */
export function AppRuleModal({ device, rule, open, saving, onClose, onSave }: TProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TForm>();
  const typeOf = (k: string | undefined) => device.sensors.find((s) => s.key === k)?.value_type ?? 'number';
  const key = Form.useWatch('key', form);
  const op: TUserRuleOp | undefined = Form.useWatch('op', form);
  const sensor = device.sensors.find((s) => s.key === key);
  const valueType = sensor?.value_type ?? 'number';
  const valueCount = sensor?.value_count ?? 1;
  const numeric = valueType === 'number';
  const ops = simpleRuleOpsFor(valueType);
  const rules = (field: keyof TUserRuleInput) => [zodRule(ZUserRuleInput, field, t)];

  const initial = (): Partial<TForm> => {
    if (rule) {
      const type = typeOf(rule.key);
      return { ...rule, ...(type === 'number' ? {} : formFieldsOfValue(type, rule.value)) };
    }
    const first = device.sensors[0];
    return { ...DEFAULTS, key: first?.key, op: simpleRuleOpsFor(first?.value_type ?? 'number')[0] };
  };

  /** A new key: the first slot, and the first operator of its type unless the chosen one fits; no old value. */
  const onKey = (next: string) => {
    const nextOps = simpleRuleOpsFor(typeOf(next));
    form.setFieldsValue({ slot: 'v1', op: op && nextOps.includes(op) ? op : nextOps[0], value: null, value_text: '' });
  };

  const submit = (values: TForm) => {
    const { value_text: _text, ...fields } = values;
    const type = typeOf(values.key);
    const input =
      type === 'number' || !isValueTestOp(values.op)
        ? { ...fields, value: null }
        : { ...fields, slot: 'v1' as const, threshold: null, value: ruleValueOfForm(type, values.op, values) };
    onSave(ZUserRuleInput.parse(input));
  };

  return (
    <Modal
      open={open}
      title={t(rule ? 'deviceControl.rules.edit' : 'deviceControl.rules.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      okButtonProps={{ loading: saving, 'data-testid': 'app-rule-save' }}
      destroyOnHidden
    >
      <Form<TForm> form={form} layout="vertical" preserve={false} initialValues={initial()} onFinish={submit}>
        <Form.Item name="name" label={t('deviceControl.rules.name')} rules={rules('name')}>
          <Input data-testid="app-rule-name" />
        </Form.Item>
        <Form.Item
          label={t('deviceControl.rules.condition')}
          required
          tooltip={op === 'changed' ? t('deviceControl.rules.changedHelp') : undefined}
        >
          <Space.Compact block>
            <Form.Item name="key" noStyle rules={rules('key')}>
              <Select
                style={{ width: '40%' }}
                data-testid="app-rule-key"
                options={device.sensors.map((s) => ({ value: s.key, label: s.key }))}
                onChange={onKey}
              />
            </Form.Item>
            {numeric && (
              <Form.Item name="slot" noStyle rules={rules('slot')}>
                <Select
                  style={{ width: '18%' }}
                  data-testid="app-rule-slot"
                  options={USER_RULE_SLOTS.slice(0, valueCount).map((s) => ({ value: s, label: s }))}
                />
              </Form.Item>
            )}
            <Form.Item name="op" noStyle rules={rules('op')}>
              <Select
                style={{ width: numeric ? '14%' : '30%' }}
                data-testid="app-rule-op"
                options={ops.map((o) => ({ value: o, label: isValueTestOp(o) ? t(`deviceControl.rules.ops.${o}`) : OP_SYMBOL[o] }))}
              />
            </Form.Item>
            {numeric && (
              <Form.Item
                name="threshold"
                noStyle
                rules={[...rules('threshold'), { required: true, message: t('deviceControl.rules.thresholdRequired') }]}
              >
                <InputNumber style={{ width: '28%' }} data-testid="app-rule-threshold" placeholder={t('deviceControl.rules.threshold')} />
              </Form.Item>
            )}
          </Space.Compact>
        </Form.Item>
        {!numeric && op && isValueTestOp(op) && <SimpleRuleValueField type={valueType} op={op} testId="app-rule-value" />}
        <Form.Item name="level" label={t('deviceControl.rules.level')} rules={rules('level')}>
          <Select
            data-testid="app-rule-level"
            options={USER_RULE_LEVELS.map((l) => ({ value: l, label: t(`deviceControl.rules.levels.${l}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="cooldown_s"
          label={t('deviceControl.rules.cooldown')}
          extra={t('deviceControl.rules.cooldownHint', { max: USER_RULE_COOLDOWN_MAX_S })}
          rules={rules('cooldown_s')}
        >
          <InputNumber min={0} precision={0} addonAfter={t('deviceControl.rules.seconds')} data-testid="app-rule-cooldown" />
        </Form.Item>
        <Form.Item name="enabled" label={t('deviceControl.rules.enabled')} valuePropName="checked">
          <Switch data-testid="app-rule-enabled" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
