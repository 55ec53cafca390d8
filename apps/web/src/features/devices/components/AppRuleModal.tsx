/**
 * Add or edit an app rule (spec §7 devices `userRules`): "notify me when key[.slot] op threshold", with the alert
 * level, a quiet time after it fired, and on/off. Validated by the contracts' ZUserRuleInput.
 */
import {
  type TDeviceDetail,
  type TUserRule,
  type TUserRuleInput,
  USER_RULE_COOLDOWN_MAX_S,
  USER_RULE_LEVELS,
  USER_RULE_OPS,
  USER_RULE_SLOTS,
  ZUserRuleInput,
} from '@tessera/contracts';
import { Form, Input, InputNumber, Modal, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/zodRules';
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

const DEFAULTS: Partial<TUserRuleInput> = { slot: 'v1', op: 'gt', level: 'remind', enabled: true, cooldown_s: 300 };

/** The rule form in a modal. */
export function AppRuleModal({ device, rule, open, saving, onClose, onSave }: TProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TUserRuleInput>();
  const key = Form.useWatch('key', form);
  const valueCount = device.sensors.find((s) => s.key === key)?.value_count ?? 1;
  const rules = (field: keyof TUserRuleInput) => [zodRule(ZUserRuleInput, field, t)];
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
      <Form<TUserRuleInput>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={rule ?? { ...DEFAULTS, key: device.sensors[0]?.key }}
        onFinish={(v) => onSave(ZUserRuleInput.parse(v))}
      >
        <Form.Item name="name" label={t('deviceControl.rules.name')} rules={rules('name')}>
          <Input data-testid="app-rule-name" />
        </Form.Item>
        <Form.Item label={t('deviceControl.rules.condition')} required>
          <Space.Compact block>
            <Form.Item name="key" noStyle rules={rules('key')}>
              <Select
                style={{ width: '40%' }}
                data-testid="app-rule-key"
                options={device.sensors.map((s) => ({ value: s.key, label: s.key }))}
                onChange={() => form.setFieldValue('slot', 'v1')}
              />
            </Form.Item>
            <Form.Item name="slot" noStyle rules={rules('slot')}>
              <Select
                style={{ width: '18%' }}
                data-testid="app-rule-slot"
                options={USER_RULE_SLOTS.slice(0, valueCount).map((s) => ({ value: s, label: s }))}
              />
            </Form.Item>
            <Form.Item name="op" noStyle rules={rules('op')}>
              <Select
                style={{ width: '14%' }}
                data-testid="app-rule-op"
                options={USER_RULE_OPS.map((o) => ({ value: o, label: OP_SYMBOL[o] }))}
              />
            </Form.Item>
            <Form.Item name="threshold" noStyle rules={rules('threshold')}>
              <InputNumber style={{ width: '28%' }} data-testid="app-rule-threshold" placeholder={t('deviceControl.rules.threshold')} />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
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
