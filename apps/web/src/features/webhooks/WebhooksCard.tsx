/**
 * A project's outbound webhooks on its notification tab (docs/decisions/webhooks.md): the list with each one's URL,
 * events and switch; add and change in a dialog; the signing secret shown once after adding or rotating; a test send
 * and the delivery log; delete after a confirmation.
 */
import { PlusOutlined } from '@ant-design/icons';
import type { TWebhook, TWebhookInput, TWebhookWithSecret } from '@tessera/contracts';
import { Alert, App, Button, Card, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteWebhook, useRotateWebhookSecret, useSaveWebhook, useSendTestWebhook, useWebhooks } from './api';
import { DeliveriesDrawer } from './DeliveriesDrawer';
import { WebhookFormModal } from './WebhookFormModal';

/** The webhooks card of project `projectId`. */
export function WebhooksCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const webhooks = useWebhooks(projectId);
  const save = useSaveWebhook(projectId);
  const remove = useDeleteWebhook(projectId);
  const rotate = useRotateWebhookSecret(projectId);
  const sendTest = useSendTestWebhook(projectId);
  const [editing, setEditing] = useState<TWebhook | 'new' | null>(null);
  const [secret, setSecret] = useState<TWebhookWithSecret | null>(null);
  const [logOf, setLogOf] = useState<TWebhook | null>(null);

  const onSave = (body: TWebhookInput) => {
    const id = editing === 'new' || editing === null ? undefined : editing.id;
    save.mutate(
      { id, body },
      {
        onSuccess: (saved) => {
          setEditing(null);
          if ('secret' in saved) setSecret(saved as TWebhookWithSecret);
          else void message.success(t('common.saved'));
        },
        onError: () => void message.error(t('errors.saveFailed')),
      },
    );
  };

  return (
    <Card
      title={t('webhooks.title')}
      size="small"
      data-testid="webhooks-card"
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="webhook-add">
          {t('webhooks.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('webhooks.hint')}</Typography.Paragraph>
      <Table<TWebhook>
        rowKey="id"
        size="small"
        loading={webhooks.isLoading}
        dataSource={webhooks.data?.data ?? []}
        locale={{ emptyText: webhooks.isLoading ? ' ' : t('webhooks.empty') }}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: t('webhooks.url'),
            dataIndex: 'url',
            render: (url: string) => <Typography.Text data-testid="webhook-row-url">{url}</Typography.Text>,
          },
          {
            title: t('webhooks.events'),
            dataIndex: 'events',
            render: (events: string[]) => events.map((e) => <Tag key={e}>{t(`webhooks.event.${e}`)}</Tag>),
          },
          {
            title: t('webhooks.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean) => <Tag color={on ? 'success' : 'default'}>{t(on ? 'webhooks.on' : 'webhooks.off')}</Tag>,
          },
          { title: t('webhooks.secret'), dataIndex: 'secret_masked', render: (s: string) => <Typography.Text code>{s}</Typography.Text> },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_v, w) => (
              <Space size={0} wrap>
                <Button
                  type="link"
                  loading={sendTest.isPending && sendTest.variables === w.id}
                  onClick={() => sendTest.mutate(w.id, { onSuccess: () => setLogOf(w) })}
                  data-testid="webhook-test"
                >
                  {t('webhooks.sendTest')}
                </Button>
                <Button type="link" onClick={() => setLogOf(w)} data-testid="webhook-log">
                  {t('webhooks.deliveries')}
                </Button>
                <Button type="link" onClick={() => setEditing(w)} data-testid="webhook-edit">
                  {t('webhooks.change')}
                </Button>
                <Popconfirm title={t('webhooks.rotateConfirm')} onConfirm={() => rotate.mutate(w.id, { onSuccess: setSecret })}>
                  <Button type="link">{t('webhooks.rotate')}</Button>
                </Popconfirm>
                <Popconfirm title={t('webhooks.deleteConfirm')} onConfirm={() => remove.mutate(w.id)}>
                  <Button type="link" danger data-testid="webhook-delete">
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {webhooks.isError && <Alert type="error" message={t('errors.loadFailed')} />}
      <WebhookFormModal editing={editing} saving={save.isPending} onSave={onSave} onClose={() => setEditing(null)} />
      <Modal
        open={secret !== null}
        closable={false}
        maskClosable={false}
        title={t('webhooks.secretTitle')}
        footer={
          <Button type="primary" onClick={() => setSecret(null)} data-testid="webhook-secret-close">
            {t('webhooks.savedIt')}
          </Button>
        }
      >
        <Alert type="warning" showIcon message={t('webhooks.secretOnce')} style={{ marginBottom: 16 }} />
        <Typography.Text copyable code data-testid="webhook-secret">
          {secret?.secret}
        </Typography.Text>
      </Modal>
      <DeliveriesDrawer projectId={projectId} webhook={logOf} onClose={() => setLogOf(null)} />
    </Card>
  );
}
