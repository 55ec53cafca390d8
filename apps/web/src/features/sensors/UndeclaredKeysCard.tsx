/**
 * The configure tab's "Undeclared keys" card (docs/decisions/telemetry.md "Undeclared keys"): the telemetry keys no
 * sensor declares that the project stored while it accepted undeclared keys (a setting of the system tab), offered for
 * declaration — each with the type its first value gave it and when it was first seen, declared as a sensor or
 * discarded (its later values are refused again).
 */
import type { TUndeclaredKey } from '@tessera/contracts';
import { Alert, App, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeclareKeyModal } from './DeclareKeyModal';
import { useDiscardUndeclaredKey, useUndeclaredKeys } from './undeclaredApi';

/** The card of project `projectId`; the table is `data-testid="undeclared-keys"`, a row `undeclared-{key}`. */
export function UndeclaredKeysCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const offer = useUndeclaredKeys(projectId);
  const discard = useDiscardUndeclaredKey(projectId);
  const [declaring, setDeclaring] = useState<TUndeclaredKey | null>(null);
  const onDiscard = (key: string) =>
    discard.mutate(key, {
      onSuccess: () => void message.success(t('sensors.undeclared.discarded', { key })),
      onError: (e) => void message.error(`${t('errors.saveFailed')}: ${e.message}`),
    });
  const data = offer.data;
  return (
    <Card
      size="small"
      title={t('sensors.undeclared.title')}
      extra={
        data && (
          <Typography.Text type="secondary">
            {t('sensors.undeclared.count', { count: data.items.length, limit: data.limit })}
          </Typography.Text>
        )
      }
      data-testid="undeclared-keys-card"
    >
      <Space direction="vertical" size="small" style={{ width: '100%' }}>
        {offer.isError && <Alert type="error" showIcon message={t('sensors.undeclared.loadFailed')} />}
        {data && (
          <Typography.Text type="secondary">
            {data.accepts_undeclared_keys ? t('sensors.undeclared.accepting') : t('sensors.undeclared.notAccepting')}
          </Typography.Text>
        )}
        <Table<TUndeclaredKey>
          size="small"
          rowKey="key"
          data-testid="undeclared-keys"
          loading={offer.isPending}
          dataSource={data?.items ?? []}
          pagination={false}
          onRow={(r) => ({ 'data-testid': `undeclared-${r.key}` }) as React.HTMLAttributes<HTMLElement>}
          locale={{ emptyText: t('sensors.undeclared.empty') }}
          columns={[
            { title: t('sensors.key'), dataIndex: 'key', render: (key: string) => <Typography.Text code>{key}</Typography.Text> },
            {
              title: t('sensors.valueType'),
              dataIndex: 'value_type',
              render: (type: TUndeclaredKey['value_type'], r) => (
                <Tag>
                  {type === 'number' && r.value_count > 1
                    ? `${t('sensors.valueTypes.number')} × ${r.value_count}`
                    : t(`sensors.valueTypes.${type}`)}
                </Tag>
              ),
            },
            {
              title: t('sensors.undeclared.firstSeen'),
              dataIndex: 'first_seen_at',
              render: (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss'),
            },
            {
              title: '',
              key: 'actions',
              align: 'right',
              render: (_, r) => (
                <Space size="small">
                  <Button size="small" type="primary" onClick={() => setDeclaring(r)} data-testid={`undeclared-declare-${r.key}`}>
                    {t('sensors.undeclared.declare')}
                  </Button>
                  <Popconfirm
                    title={t('sensors.undeclared.discardConfirm', { key: r.key })}
                    onConfirm={() => onDiscard(r.key)}
                    okButtonProps={{ 'data-testid': 'undeclared-discard-confirm' }}
                  >
                    <Button size="small" danger data-testid={`undeclared-discard-${r.key}`}>
                      {t('sensors.undeclared.discard')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Space>
      <DeclareKeyModal projectId={projectId} offered={declaring} onClose={() => setDeclaring(null)} />
    </Card>
  );
}
