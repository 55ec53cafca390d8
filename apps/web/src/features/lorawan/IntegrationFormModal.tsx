/**
 * Adding or changing a LoRaWAN integration: its name, the network server that sends, how uplinks arrive (the
 * webhook, or — ChirpStack only — Tessera subscribing to ChirpStack's MQTT broker: URL, username, password,
 * application id), and the mapping from decoded payload fields (dot paths) to the project's keys — none means each
 * top-level field goes to the key of its name.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  LORAWAN_MAPPING_MAX,
  LORAWAN_MQTT_PASSWORD_MAX,
  LORAWAN_NETWORK_SERVERS,
  LORAWAN_TRANSPORTS,
  type TLorawanIntegration,
  type TLorawanIntegrationInput,
  ZLorawanMappingEntry,
  ZLorawanMqttInput,
} from '@tessera/contracts';
import { Button, Form, Input, Modal, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Open while `editing` is set: `'new'` to add, an integration to change. */
export function IntegrationFormModal(props: {
  editing: TLorawanIntegration | 'new' | null;
  saving: boolean;
  onSave: (body: TLorawanIntegrationInput) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TLorawanIntegrationInput>();
  const current = props.editing === 'new' ? null : props.editing;
  const networkServer = Form.useWatch('network_server', form);
  const transport = Form.useWatch('transport', form);
  const isMqtt = transport === 'mqtt' && networkServer === 'chirpstack';
  const brokerRule = (part: 'url' | 'application_id', message: string) => ({
    validator: (_r: unknown, value: string) =>
      ZLorawanMqttInput.shape[part].safeParse(value ?? '').success ? Promise.resolve() : Promise.reject(new Error(t(message))),
  });
  // The stored password is never sent back: an empty field keeps it, so it is not part of the initial values.
  const initial = current
    ? {
        ...current,
        mqtt: current.mqtt
          ? { url: current.mqtt.url, username: current.mqtt.username, application_id: current.mqtt.application_id }
          : undefined,
      }
    : { name: '', network_server: 'chirpstack' as const, transport: 'webhook' as const, mapping: [] };
  const submit = (values: TLorawanIntegrationInput) => {
    const mqtt = values.mqtt ? { ...values.mqtt, password: values.mqtt.password || (current?.mqtt ? undefined : '') } : undefined;
    props.onSave(isMqtt ? { ...values, transport: 'mqtt', mqtt } : { ...values, transport: 'webhook', mqtt: null });
  };
  const fieldRule = (part: 'path' | 'key') => ({
    validator: (_r: unknown, value: string) =>
      ZLorawanMappingEntry.shape[part].safeParse(value ?? '').success
        ? Promise.resolve()
        : Promise.reject(new Error(t(part === 'path' ? 'lorawan.pathInvalid' : 'lorawan.keyInvalid'))),
  });
  return (
    <Modal
      open={props.editing !== null}
      destroyOnHidden
      width={640}
      title={t(current ? 'lorawan.edit' : 'lorawan.add')}
      okText={t('common.save')}
      confirmLoading={props.saving}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      okButtonProps={{ 'data-testid': 'lorawan-save' } as { 'data-testid': string }}
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={initial} onFinish={submit}>
        <Form.Item
          name="name"
          label={t('lorawan.name')}
          rules={[{ required: true, whitespace: true, max: 64, message: t('lorawan.nameRequired') }]}
        >
          <Input data-testid="lorawan-name" maxLength={64} />
        </Form.Item>
        <Form.Item name="network_server" label={t('lorawan.networkServer')}>
          <Select
            data-testid="lorawan-network-server"
            options={LORAWAN_NETWORK_SERVERS.map((ns) => ({ value: ns, label: t(`lorawan.ns.${ns}`) }))}
          />
        </Form.Item>
        {networkServer === 'chirpstack' && (
          <Form.Item name="transport" label={t('lorawan.transport')} extra={t(`lorawan.transportHint.${transport ?? 'webhook'}`)}>
            <Radio.Group
              data-testid="lorawan-transport"
              optionType="button"
              options={LORAWAN_TRANSPORTS.map((tr) => ({ value: tr, label: t(`lorawan.transports.${tr}`) }))}
            />
          </Form.Item>
        )}
        {isMqtt && (
          <>
            <Form.Item name={['mqtt', 'url']} label={t('lorawan.mqtt.url')} rules={[brokerRule('url', 'lorawan.mqtt.urlInvalid')]}>
              <Input placeholder="mqtts://chirpstack.example.com:8883" data-testid="lorawan-mqtt-url" />
            </Form.Item>
            <Form.Item name={['mqtt', 'username']} label={t('lorawan.mqtt.username')}>
              <Input autoComplete="off" maxLength={256} data-testid="lorawan-mqtt-username" />
            </Form.Item>
            <Form.Item
              name={['mqtt', 'password']}
              label={t('lorawan.mqtt.password')}
              extra={current?.mqtt?.password_masked ? t('lorawan.mqtt.passwordKept', { masked: current.mqtt.password_masked }) : undefined}
            >
              <Input.Password autoComplete="new-password" maxLength={LORAWAN_MQTT_PASSWORD_MAX} data-testid="lorawan-mqtt-password" />
            </Form.Item>
            <Form.Item
              name={['mqtt', 'application_id']}
              label={t('lorawan.mqtt.applicationId')}
              extra={t('lorawan.mqtt.applicationIdHint')}
              rules={[brokerRule('application_id', 'lorawan.mqtt.applicationIdInvalid')]}
            >
              <Input placeholder="17c82e96-be03-4f38-aef3-f83d48582d97" data-testid="lorawan-mqtt-application" />
            </Form.Item>
          </>
        )}
        <Typography.Text strong>{t('lorawan.mapping')}</Typography.Text>
        <Typography.Paragraph type="secondary">{t('lorawan.mappingHint')}</Typography.Paragraph>
        <Form.List name="mapping">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="start" wrap>
                  <Form.Item name={[field.name, 'path']} rules={[fieldRule('path')]}>
                    <Input placeholder={t('lorawan.pathPlaceholder')} aria-label={t('lorawan.path')} data-testid="lorawan-map-path" />
                  </Form.Item>
                  <Typography.Text type="secondary">→</Typography.Text>
                  <Form.Item name={[field.name, 'key']} rules={[fieldRule('key')]}>
                    <Input placeholder={t('lorawan.keyPlaceholder')} aria-label={t('lorawan.key')} data-testid="lorawan-map-key" />
                  </Form.Item>
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} onClick={() => remove(field.name)} />
                </Space>
              ))}
              <Button
                icon={<PlusOutlined />}
                disabled={fields.length >= LORAWAN_MAPPING_MAX}
                onClick={() => add({ path: '', key: '' })}
                data-testid="lorawan-map-add"
              >
                {t('lorawan.addMapping')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
