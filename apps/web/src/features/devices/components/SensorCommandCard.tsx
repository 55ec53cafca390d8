/**
 * "Sensor command" (spec §7 remoteControl sensorCommand): pick one of the device's sensors and an action — `read`
 * answers the current reading; vendors may type another firmware-defined action (users may only read).
 */
import { SENSOR_READ_ACTION, type TDeviceDetail, ZSensorCommandRequest, ZSensorReading } from '@tessera/contracts';
import { SendOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/zodRules';
import { useSensorCommand } from '../controlApi';
import { formatLocalTime, formatValues } from '../model/format';
import { CommandError } from './CommandError';

interface TForm {
  key: string;
  action: string;
}

function Result({ result, device }: { result: unknown; device: TDeviceDetail }) {
  const { t, i18n } = useTranslation();
  const reading = ZSensorReading.safeParse(result);
  if (!reading.success) {
    return (
      <Typography.Text code data-testid="sensor-command-result">
        {JSON.stringify(result)}
      </Typography.Text>
    );
  }
  return (
    <Space direction="vertical" size={0} data-testid="sensor-command-result">
      <div>
        <Typography.Text strong style={{ fontSize: 20 }} data-testid="sensor-command-value">
          {formatValues(reading.data.vs, i18n.language)}
        </Typography.Text>
        <Typography.Text style={{ marginInlineStart: 6 }}>{device.sensors.find((s) => s.key === reading.data.key)?.unit}</Typography.Text>
      </div>
      <Typography.Text type="secondary">{t('deviceControl.remote.readAt', { time: formatLocalTime(reading.data.ts) })}</Typography.Text>
    </Space>
  );
}

/** The sensor command card. `canAct`: the caller may send actions other than read (vendors). */
export function SensorCommandCard({ device, canAct }: { device: TDeviceDetail; canAct: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TForm>();
  const send = useSensorCommand(device.tangram_id);
  const keys = device.sensors.map((s) => ({ value: s.key, label: s.name === s.key ? s.key : `${s.name} (${s.key})` }));
  return (
    <Card title={t('deviceControl.remote.sensorTitle')}>
      <Form<TForm>
        form={form}
        layout="inline"
        initialValues={{ key: device.sensors[0]?.key, action: SENSOR_READ_ACTION }}
        onFinish={(v) => send.mutate(ZSensorCommandRequest.parse(v))}
      >
        <Form.Item name="key" label={t('deviceControl.remote.sensorKey')} rules={[zodRule(ZSensorCommandRequest, 'key', t)]}>
          <Select options={keys} style={{ minWidth: 200 }} data-testid="sensor-command-key" />
        </Form.Item>
        <Form.Item name="action" label={t('deviceControl.remote.action')} rules={[zodRule(ZSensorCommandRequest, 'action', t)]}>
          <Input disabled={!canAct} style={{ width: 160 }} data-testid="sensor-command-action" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={send.isPending} data-testid="sensor-command-send">
            {t('deviceControl.remote.send')}
          </Button>
        </Form.Item>
      </Form>
      <div style={{ marginTop: 16 }}>
        {send.isPending && <Typography.Text type="secondary">{t('deviceControl.remote.waiting')}</Typography.Text>}
        {!send.isPending && <CommandError error={send.error} timeoutHint />}
        {!send.isPending && send.data && <Result result={send.data.result} device={device} />}
      </div>
    </Card>
  );
}
