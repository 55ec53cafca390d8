/**
 * A project's LoRaWAN integrations beside its webhooks (docs/decisions/lorawan.md): each with its network server,
 * webhook URL and masked secret — or, over ChirpStack's MQTT integration, its broker, topic and connection state —
 * and what it received; add and change in a dialog; the webhook's URL and secret shown once after adding or rotating;
 * the last payloads; delete after a confirmation.
 */
import { PlusOutlined } from '@ant-design/icons';
import type { TLorawanIntegration, TLorawanIntegrationInput, TLorawanIntegrationWithSecret } from '@tessera/contracts';
import { Alert, App, Button, Card, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteLorawanIntegration, useLorawanIntegrations, useRotateLorawanSecret, useSaveLorawanIntegration } from './api';
import { IntegrationFormModal } from './IntegrationFormModal';
import { SecretModal, webhookUrl } from './SecretModal';
import { UplinksDrawer } from './UplinksDrawer';

const STATE_COLOURS = { connecting: 'processing', connected: 'success', disconnected: 'error' } as const;

/** An MQTT integration's connection state, its last error on hover. */
function MqttState({ mqtt }: { mqtt: NonNullable<TLorawanIntegration['mqtt']> }) {
  const { t } = useTranslation();
  const tag = (
    <Tag color={STATE_COLOURS[mqtt.state]} data-testid="lorawan-row-state">
      {t(`lorawan.mqtt.states.${mqtt.state}`)}
    </Tag>
  );
  return mqtt.last_error ? (
    <Tooltip title={t('lorawan.mqtt.lastError', { error: mqtt.last_error })}>
      <span>
        {tag}
        <Typography.Text type="danger" data-testid="lorawan-row-error">
          {mqtt.last_error}
        </Typography.Text>
      </span>
    </Tooltip>
  ) : (
    tag
  );
}

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
          // An integration over MQTT has no webhook to give its URL and secret to.
          if ('secret' in saved && saved.transport === 'webhook') setSecret(saved as TLorawanIntegrationWithSecret);
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
            key: 'url',
            render: (_v, i) =>
              i.mqtt ? (
                <Space direction="vertical" size={0}>
                  <Typography.Text code data-testid="lorawan-row-broker">
                    {i.mqtt.url}
                  </Typography.Text>
                  <Typography.Text type="secondary" copyable>
                    {i.mqtt.topic}
                  </Typography.Text>
                </Space>
              ) : (
                <Typography.Text copyable code data-testid="lorawan-row-url">
                  {webhookUrl(i.webhook_path)}
                </Typography.Text>
              ),
          },
          {
            title: t('lorawan.access'),
            key: 'secret',
            render: (_v, i) => (i.mqtt ? <MqttState mqtt={i.mqtt} /> : <Typography.Text code>{i.secret_masked}</Typography.Text>),
          },
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
                {i.transport === 'webhook' && (
                  <Popconfirm title={t('lorawan.rotateConfirm')} onConfirm={() => rotate.mutate(i.id, { onSuccess: setSecret })}>
                    <Button type="link">{t('lorawan.rotate')}</Button>
                  </Popconfirm>
                )}
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
