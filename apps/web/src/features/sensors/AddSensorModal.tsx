/**
 * Add a sensor to the project: key, name, unit, value type and value count (numbers only), validated by ZSensorInput
 * (defaults for the rest).
 */
import { TELEMETRY_VALUE_TYPES, type TSensorInput, ZSensorInput } from '@tessera/contracts';
import { App, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../lib/zodRules';
import { useAddSensor } from './api';

type TAddForm = Pick<TSensorInput, 'key' | 'name' | 'unit' | 'value_count' | 'value_type'>;

/** The add-sensor modal. */
export function AddSensorModal({ projectId, open, onClose }: { projectId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TAddForm>();
  const add = useAddSensor(projectId);
  const submit = (values: TAddForm) =>
    add.mutate(values, {
      onSuccess: (res) => {
        form.resetFields();
        onClose();
        if (res.disabled_excess.length) message.warning(t('sensors.overLimit', { keys: res.disabled_excess.join(', ') }));
      },
      onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
    });
  const rule = (field: keyof TAddForm) => [zodRule(ZSensorInput, field, t)];
  const valueType = Form.useWatch('value_type', form) ?? 'number';
  return (
    <Modal
      open={open}
      title={t('sensors.addSensor')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: add.isPending, 'data-testid': 'sensor-add-submit' }}
      destroyOnHidden
    >
      <Form<TAddForm>
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        initialValues={{ value_count: 1, unit: '', value_type: 'number' }}
      >
        <Form.Item name="key" label={t('sensors.key')} rules={rule('key')}>
          <Input data-testid="sensor-add-key" />
        </Form.Item>
        <Form.Item name="name" label={t('common.name')} rules={rule('name')}>
          <Input data-testid="sensor-add-name" />
        </Form.Item>
        <Form.Item name="unit" label={t('sensors.unit')} rules={rule('unit')}>
          <Input />
        </Form.Item>
        <Form.Item name="value_type" label={t('sensors.valueType')} rules={rule('value_type')}>
          <Select
            data-testid="sensor-add-value-type"
            options={TELEMETRY_VALUE_TYPES.map((type) => ({ value: type, label: t(`sensors.valueTypes.${type}`) }))}
          />
        </Form.Item>
        {valueType === 'number' && (
          <Form.Item name="value_count" label={t('sensors.valueCount')} rules={rule('value_count')}>
            <InputNumber min={1} max={3} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
