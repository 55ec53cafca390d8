/**
 * API keys of the profile (spec §1 "API tokens (name, validity or permanent)", §5 name ≤ 32): list, create with an
 * expiry date or permanent — the key is shown once, with copy — and revoke after a confirmation.
 */
import { type TApiKey, type TApiKeyCreated, ZApiKeyCreate } from '@tessera/contracts';
import { Alert, App, Button, Checkbox, DatePicker, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rowTestId } from '../../components/rowTestId';
import { zodRule } from '../../lib/zodRules';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './api';

interface TKeyForm {
  name: string;
  expires?: Dayjs | null;
  permanent: boolean;
}

/** The create form's values → the POST body (end of the chosen day, or null when permanent). */
const toBody = (v: Partial<TKeyForm>) => ({
  name: v.name,
  expires_at: v.permanent ? null : (v.expires?.endOf('day').valueOf() ?? undefined),
});
const fmt = (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm');

/** The API-key card. */
export function ApiKeys() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [form] = Form.useForm<TKeyForm>();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<TApiKeyCreated | null>(null);
  const permanent = Form.useWatch('permanent', form);

  const submit = (v: TKeyForm) =>
    create.mutate(ZApiKeyCreate.parse(toBody(v)), {
      onSuccess: (key) => {
        setCreating(false);
        form.resetFields();
        setCreated(key);
      },
    });
  const confirmRevoke = (key: TApiKey) =>
    modal.confirm({
      title: t('profile.keys.revokeTitle', { name: key.name }),
      content: t('profile.keys.revokeWarning'),
      okButtonProps: { danger: true, 'data-testid': 'api-key-revoke-confirm' },
      okText: t('profile.keys.revoke'),
      onOk: () => revoke.mutateAsync(key.id),
    });

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Button type="primary" onClick={() => setCreating(true)} data-testid="api-key-create">
        {t('profile.keys.create')}
      </Button>
      <Table<TApiKey>
        rowKey="id"
        size="small"
        loading={keys.isLoading}
        dataSource={keys.data?.data ?? []}
        pagination={false}
        onRow={rowTestId('api-key')}
        columns={[
          { title: t('common.name'), dataIndex: 'name' },
          { title: t('profile.keys.prefix'), dataIndex: 'prefix', render: (p: string) => <Typography.Text code>{p}…</Typography.Text> },
          {
            title: t('profile.keys.expires'),
            dataIndex: 'expires_at',
            render: (e: number | null) => (e ? fmt(e) : t('profile.keys.permanent')),
          },
          { title: t('common.createdAt'), dataIndex: 'created_at', render: fmt },
          {
            title: t('common.actions'),
            render: (_, r) =>
              r.revoked ? (
                <Tag>{t('profile.keys.revoked')}</Tag>
              ) : (
                <Button size="small" danger onClick={() => confirmRevoke(r)} data-testid={`api-key-revoke-${r.id}`}>
                  {t('profile.keys.revoke')}
                </Button>
              ),
          },
        ]}
      />
      <Modal
        open={creating}
        title={t('profile.keys.create')}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
        okButtonProps={{ loading: create.isPending, 'data-testid': 'api-key-submit' }}
        destroyOnHidden
      >
        <Form<TKeyForm> form={form} layout="vertical" onFinish={submit} initialValues={{ permanent: false }} preserve={false}>
          <Form.Item name="name" label={t('common.name')} rules={[zodRule(ZApiKeyCreate, 'name', t, toBody)]}>
            <Input data-testid="api-key-name" />
          </Form.Item>
          <Form.Item name="permanent" valuePropName="checked">
            <Checkbox data-testid="api-key-permanent">{t('profile.keys.permanent')}</Checkbox>
          </Form.Item>
          {!permanent && (
            <Form.Item name="expires" label={t('profile.keys.expires')} rules={[zodRule(ZApiKeyCreate, 'expires_at', t, toBody)]}>
              <DatePicker data-testid="api-key-expires" disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
            </Form.Item>
          )}
        </Form>
      </Modal>
      <Modal
        destroyOnHidden
        open={created !== null}
        title={t('profile.keys.createdTitle')}
        onCancel={() => setCreated(null)}
        footer={<Button onClick={() => setCreated(null)}>{t('common.confirm')}</Button>}
      >
        <Alert type="warning" showIcon title={t('profile.keys.onceWarning')} style={{ marginBottom: 16 }} />
        <Typography.Paragraph copyable={{ text: created?.key }} code data-testid="api-key-secret">
          {created?.key}
        </Typography.Paragraph>
      </Modal>
    </Space>
  );
}
