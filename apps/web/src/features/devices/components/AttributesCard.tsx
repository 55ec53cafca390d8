/**
 * "Attributes" card of the device page (ThingsBoard's device API; docs/decisions/device-apis.md "Attributes"): the
 * device's client attributes (sent by the device), shared ones (sent to the device) and server ones (kept on the
 * platform), one scope at a time. A vendor sets and deletes shared and server attributes; a shared change reaches the
 * connected device at once.
 */
import { ATTRIBUTE_KEY_MAX_CHARS, type TAttributeScope, type TDeviceAttribute } from '@tessera/contracts';
import { Alert, Button, Card, Form, Input, Popconfirm, Segmented, Space, Table, Typography } from 'antd';
import { type HTMLAttributes, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../../lib/http';
import { parseTypedValue, useDeleteDeviceAttribute, useDeviceAttributes, useSetDeviceAttribute } from '../attributesApi';
import { formatLocalTime } from '../model/format';

/** Shows a value: strings as they are, anything else as JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The form that sets one shared or server attribute. */
function SetAttributeForm({ tangramId, scope, editing }: { tangramId: string; scope: TAttributeScope; editing: TDeviceAttribute | null }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ key: string; value: string }>();
  const save = useSetDeviceAttribute(tangramId, scope);
  useEffect(() => {
    if (editing) form.setFieldsValue({ key: editing.key, value: shown(editing.value) });
  }, [editing, form]);
  return (
    <Form
      form={form}
      layout="inline"
      data-testid="attribute-form"
      onFinish={(v) => save.mutate({ [v.key]: parseTypedValue(v.value) }, { onSuccess: () => form.resetFields() })}
    >
      <Form.Item name="key" rules={[{ required: true, message: t('devices.attributes.keyRequired') }]}>
        <Input placeholder={t('devices.attributes.key')} maxLength={ATTRIBUTE_KEY_MAX_CHARS} data-testid="attribute-key" />
      </Form.Item>
      <Form.Item name="value" rules={[{ required: true, message: t('devices.attributes.valueRequired') }]}>
        <Input placeholder={t('devices.attributes.valuePlaceholder')} data-testid="attribute-value" style={{ width: 260 }} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="attribute-save">
        {t('devices.attributes.save')}
      </Button>
      {save.isError && (
        <Alert
          type="error"
          showIcon
          data-testid="attribute-save-error"
          message={save.error instanceof HttpError ? save.error.message : t('devices.attributes.saveFailed')}
        />
      )}
    </Form>
  );
}

/** The attributes card; `canEdit` for vendors (shared and server scopes only). */
export function AttributesCard({ tangramId, canEdit }: { tangramId: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const [scope, setScope] = useState<TAttributeScope>('client');
  const [editing, setEditing] = useState<TDeviceAttribute | null>(null);
  const list = useDeviceAttributes(tangramId, scope);
  const remove = useDeleteDeviceAttribute(tangramId, scope);
  const editable = canEdit && scope !== 'client';
  return (
    <Card size="small" title={t('devices.attributes.title')} data-testid="attributes-card">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Segmented<TAttributeScope>
          data-testid="attribute-scope"
          value={scope}
          onChange={(s) => {
            setScope(s);
            setEditing(null);
          }}
          options={(['client', 'shared', 'server'] as const).map((s) => ({
            value: s,
            label: <span data-testid={`attribute-scope-${s}`}>{t(`devices.attributes.scope.${s}`)}</span>,
          }))}
        />
        <Typography.Text type="secondary">{t(`devices.attributes.explain.${scope}`)}</Typography.Text>
        {editable && <SetAttributeForm key={scope} tangramId={tangramId} scope={scope} editing={editing} />}
        {list.isError && <Alert type="error" showIcon message={t('devices.attributes.loadFailed')} />}
        <Table<TDeviceAttribute>
          size="small"
          rowKey="key"
          loading={list.isLoading}
          dataSource={list.data?.items ?? []}
          data-testid="attribute-table"
          locale={{ emptyText: t('devices.attributes.empty') }}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          onRow={(row) => ({ 'data-testid': `attribute-row-${row.key}` }) as HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('devices.attributes.key'), dataIndex: 'key' },
            {
              title: t('devices.attributes.value'),
              dataIndex: 'value',
              render: (v: unknown) => <Typography.Text code>{shown(v)}</Typography.Text>,
            },
            { title: t('devices.attributes.updatedAt'), dataIndex: 'updated_at', render: (ts: number) => formatLocalTime(ts) },
            ...(editable
              ? [
                  {
                    title: '',
                    key: 'actions',
                    render: (_: unknown, row: TDeviceAttribute) => (
                      <Space>
                        <Button size="small" data-testid={`attribute-edit-${row.key}`} onClick={() => setEditing(row)}>
                          {t('devices.attributes.edit')}
                        </Button>
                        <Popconfirm
                          title={t('devices.attributes.deleteConfirm', { key: row.key })}
                          okText={t('devices.attributes.delete')}
                          cancelText={t('devices.attributes.cancel')}
                          okButtonProps={{ danger: true, 'data-testid': 'attribute-delete-confirm' }}
                          onConfirm={() => remove.mutateAsync(row.key)}
                        >
                          <Button size="small" danger data-testid={`attribute-delete-${row.key}`}>
                            {t('devices.attributes.delete')}
                          </Button>
                        </Popconfirm>
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Space>
    </Card>
  );
}
