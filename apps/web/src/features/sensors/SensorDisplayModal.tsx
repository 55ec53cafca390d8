/** A sensor's display settings (sensorDisplay): decimals, gauge range and chart colour; add, edit or remove. */
import { type TSensor, type TSensorDisplayInput, ZSensorDisplayInput } from '@tessera/contracts';
import { App, Button, ColorPicker, Form, InputNumber, Modal, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../lib/zodRules';
import { useSensorDisplay, useSensorDisplayMutations } from './api';

const DEFAULTS = ZSensorDisplayInput.parse({});

/** The display-settings modal of `sensor` (closed when null). */
export function SensorDisplayModal({ sensor, onClose }: { sensor: TSensor | null; onClose: () => void }) {
  return sensor ? <Inner sensor={sensor} onClose={onClose} /> : null;
}

function Inner({ sensor, onClose }: { sensor: TSensor; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TSensorDisplayInput>();
  const current = useSensorDisplay(sensor.id);
  const { save, remove } = useSensorDisplayMutations(sensor.id);
  const exists = Boolean(current.data);
  const toInput = (v: Record<string, unknown>) => ({
    ...v,
    gauge_min: v.gauge_min ?? null,
    gauge_max: v.gauge_max ?? null,
    color: typeof v.color === 'string' ? v.color : ((v.color as { toHexString?: () => string })?.toHexString?.() ?? DEFAULTS.color),
  });
  const submit = (values: TSensorDisplayInput) =>
    save.mutate(
      { input: ZSensorDisplayInput.parse(toInput(values)), exists },
      { onSuccess: onClose, onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`) },
    );
  const rule = (f: string) => [zodRule(ZSensorDisplayInput, f, t, toInput)];
  return (
    <Modal
      open
      title={t('sensors.displayTitle', { key: sensor.key })}
      onCancel={onClose}
      onOk={() => form.submit()}
      loading={current.isLoading}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'display-save' }}
      footer={(_, { OkBtn, CancelBtn }) => (
        <>
          {exists && (
            <Popconfirm title={t('sensors.displayDeleteConfirm')} onConfirm={() => remove.mutate(undefined, { onSuccess: onClose })}>
              <Button danger>{t('common.delete')}</Button>
            </Popconfirm>
          )}
          <CancelBtn />
          <OkBtn />
        </>
      )}
      destroyOnHidden
    >
      {!current.isLoading && (
        <Form<TSensorDisplayInput> form={form} layout="vertical" onFinish={submit} initialValues={current.data ?? DEFAULTS}>
          <Form.Item name="decimals" label={t('sensors.decimals')} rules={rule('decimals')}>
            <InputNumber min={0} max={6} data-testid="display-decimals" />
          </Form.Item>
          <Form.Item name="gauge_min" label={t('sensors.gaugeMin')} rules={rule('gauge_min')}>
            <InputNumber />
          </Form.Item>
          <Form.Item name="gauge_max" label={t('sensors.gaugeMax')} rules={rule('gauge_max')}>
            <InputNumber />
          </Form.Item>
          <Form.Item name="color" label={t('sensors.color')}>
            <ColorPicker format="hex" disabledAlpha />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
