/**
 * A project's LoRaWAN integrations beside its webhooks (docs/decisions/lorawan.md): each with its network server,
 * webhook URL, masked secret and what it received; add and change (name, network server, field mapping) in a dialog;
 * the URL and secret shown once after adding or rotating; the last payloads; delete after a confirmation.
 */
import { PlusOutlined } from '@ant-design/icons';
import type { TLorawanIntegration, TLorawanIntegrationInput, TLorawanIntegrationWithSecret } from '@tessera/contracts';
import { Alert, App, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteLorawanIntegration, useLorawanIntegrations, useRotateLorawanSecret, useSaveLorawanIntegration } from './api';
import { IntegrationFormModal } from './IntegrationFormModal';
import { SecretModal, webhookUrl } from './SecretModal';
import { UplinksDrawer } from './UplinksDrawer';

/** The LoRaWAN card of project `projectId`. */
export function LorawanCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const integrations = useLorawanIntegrations(projectId);
  const save = useSaveLorawanIntegration(projectId);
  const remove = useDeleteLorawanIntegration(projectId);
  const rotate = useRotateLorawanSecret(projectId);
  const [editing, setEditing] = useState<TLorawanIntegration | 'new' | null>(null);
  const [secret, setSecret] = useState<TLorawanIntegrationWithSecret | null>(null);
  const [logOf, setLogOf] = useState<TLorawanIntegration | null>(null);

  const onSave = (body: TLorawanIntegrationInput) => {
    const id = editing === 'new' || editing === null ? undefined : editing.id;
    save.mutate(
      { id, body: { ...body, mapping: body.mapping ?? [] } },
      {
        onSuccess: (saved) => {
          setEditing(null);
          if ('secret' in saved) setSecret(saved as TLorawanIntegrationWithSecret);
          else void message.success(t('common.saved'));
        },
        onError: () => void message.error(t('errors.saveFailed')),
      },
    );
  };

  return (
    <Card
      title={t('lorawan.title')}
      size="small"
      data-testid="lorawan-card"
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="lorawan-add">
          {t('lorawan.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('lorawan.hint')}</Typography.Paragraph>
      <Table<TLorawanIntegration>
        rowKey="id"
        size="small"
        loading={integrations.isLoading}
        dataSource={integrations.data?.data ?? []}
        locale={{ emptyText: integrations.isLoading ? ' ' : t('lorawan.empty') }}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('lorawan.name'), dataIndex: 'name', render: (n: string) => <span data-testid="lorawan-row-name">{n}</span> },
          { title: t('lorawan.networkServer'), dataIndex: 'network_server', render: (ns: string) => <Tag>{t(`lorawan.ns.${ns}`)}</Tag> },
          {
            title: t('lorawan.url'),
            dataIndex: 'webhook_path',
            render: (path: string) => (
              <Typography.Text copyable code data-testid="lorawan-row-url">
                {webhookUrl(path)}
              </Typography.Text>
            ),
          },
          { title: t('lorawan.secret'), dataIndex: 'secret_masked', render: (s: string) => <Typography.Text code>{s}</Typography.Text> },
          {
            title: t('lorawan.received'),
            key: 'received',
            render: (_v, i) => (
              <Typography.Text data-testid="lorawan-row-counts">
                {t('lorawan.counts', { stored: i.uplinks_stored, refused: i.uplinks_refused, ignored: i.events_ignored })}
                {i.last_received_at ? ` · ${dayjs(i.last_received_at).format('YYYY-MM-DD HH:mm:ss')}` : ''}
              </Typography.Text>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_v, i) => (
              <Space size={0} wrap>
                <Button type="link" onClick={() => setLogOf(i)} data-testid="lorawan-uplinks-open">
                  {t('lorawan.uplinks')}
                </Button>
                <Button type="link" onClick={() => setEditing(i)} data-testid="lorawan-edit">
                  {t('lorawan.change')}
                </Button>
                <Popconfirm title={t('lorawan.rotateConfirm')} onConfirm={() => rotate.mutate(i.id, { onSuccess: setSecret })}>
                  <Button type="link">{t('lorawan.rotate')}</Button>
                </Popconfirm>
                <Popconfirm title={t('lorawan.deleteConfirm')} onConfirm={() => remove.mutate(i.id)}>
                  <Button type="link" danger data-testid="lorawan-delete">
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {integrations.isError && <Alert type="error" title={t('errors.loadFailed')} />}
      <IntegrationFormModal editing={editing} saving={save.isPending} onSave={onSave} onClose={() => setEditing(null)} />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
      <UplinksDrawer projectId={projectId} integration={logOf} onClose={() => setLogOf(null)} />
    </Card>
  );
}
