/** Adding or changing a webhook: its URL, the events it hears of, and whether it is on. */
import { type TWebhook, type TWebhookInput, WEBHOOK_EVENTS, ZWebhookUrl } from '@tessera/contracts';
import { Checkbox, Form, Input, Modal, Switch } from 'antd';
import { useTranslation } from 'react-i18next';

/** Open while `editing` is set: `'new'` to add, a webhook to change. */
export function WebhookFormModal(props: {
  editing: TWebhook | 'new' | null;
  saving: boolean;
  onSave: (body: TWebhookInput) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TWebhookInput>();
  const current = props.editing === 'new' ? null : props.editing;
  return (
    <Modal
      open={props.editing !== null}
      destroyOnHidden
      title={t(current ? 'webhooks.edit' : 'webhooks.add')}
      okText={t('common.save')}
      confirmLoading={props.saving}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      okButtonProps={{ 'data-testid': 'webhook-save' } as { 'data-testid': string }}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={current ?? { url: '', events: [...WEBHOOK_EVENTS], enabled: true }}
        onFinish={props.onSave}
      >
        <Form.Item
          name="url"
          label={t('webhooks.url')}
          rules={[
            {
              validator: (_r, value: string) =>
                ZWebhookUrl.safeParse(value ?? '').success ? Promise.resolve() : Promise.reject(new Error(t('webhooks.urlInvalid'))),
            },
          ]}
        >
          <Input placeholder="https://example.com/hooks/tessera" data-testid="webhook-url" />
        </Form.Item>
        <Form.Item
          name="events"
          label={t('webhooks.events')}
          rules={[{ required: true, type: 'array', min: 1, message: t('webhooks.eventsRequired') }]}
        >
          <Checkbox.Group options={WEBHOOK_EVENTS.map((e) => ({ value: e, label: t(`webhooks.event.${e}`) }))} />
        </Form.Item>
        <Form.Item name="enabled" label={t('webhooks.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
