/**
 * Adding or changing a LoRaWAN integration: its name, the network server that sends, and the mapping from decoded
 * payload fields (dot paths) to the project's keys — none means each top-level field goes to the key of its name.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  LORAWAN_MAPPING_MAX,
  LORAWAN_NETWORK_SERVERS,
  type TLorawanIntegration,
  type TLorawanIntegrationInput,
  ZLorawanMappingEntry,
} from '@tessera/contracts';
import { Button, Form, Input, Modal, Select, Space, Typography } from 'antd';
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
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={current ?? { name: '', network_server: 'chirpstack', mapping: [] }}
        onFinish={props.onSave}
      >
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
