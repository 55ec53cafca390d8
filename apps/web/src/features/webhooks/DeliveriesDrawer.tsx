/** A webhook's delivery log: each event sent, the receiver's answer, the tries; refreshed while one is pending. */
import type { TWebhook, TWebhookDelivery } from '@tessera/contracts';
import { Drawer, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWebhookDeliveries } from './api';

const STATUS_COLOR: Record<TWebhookDelivery['status'], string> = { pending: 'processing', sent: 'success', failed: 'error' };

/** Open while `webhook` is set. */
export function DeliveriesDrawer({ projectId, webhook, onClose }: { projectId: number; webhook: TWebhook | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(projectId, webhook?.id ?? null, page);
  return (
    <Drawer open={webhook !== null} onClose={onClose} width={720} title={t('webhooks.deliveries')} destroyOnHidden>
      <Typography.Paragraph type="secondary" ellipsis>
        {webhook?.url}
      </Typography.Paragraph>
      <Table<TWebhookDelivery>
        rowKey="id"
        size="small"
        data-testid="webhook-deliveries"
        loading={deliveries.isLoading}
        dataSource={deliveries.data?.data ?? []}
        locale={{ emptyText: deliveries.isLoading ? ' ' : t('webhooks.noDeliveries') }}
        scroll={{ x: 'max-content' }}
        pagination={{ current: page, pageSize: 10, total: deliveries.data?.total_items ?? 0, onChange: setPage, showSizeChanger: false }}
        expandable={{ expandedRowRender: (d) => <Typography.Text code>{d.payload}</Typography.Text> }}
        columns={[
          { title: t('webhooks.at'), dataIndex: 'created_at', render: (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss') },
          { title: t('webhooks.eventColumn'), dataIndex: 'event', render: (e: string) => t(`webhooks.event.${e}`, { defaultValue: e }) },
          {
            title: t('webhooks.status'),
            dataIndex: 'status',
            render: (s: TWebhookDelivery['status']) => (
              <Tag color={STATUS_COLOR[s]} data-testid="webhook-delivery-status">
                {t(`webhooks.state.${s}`)}
              </Tag>
            ),
          },
          { title: t('webhooks.response'), dataIndex: 'response_status', render: (s: number | null) => s ?? '—' },
          { title: t('webhooks.attempts'), dataIndex: 'attempts' },
          { title: t('webhooks.duration'), dataIndex: 'duration_ms', render: (ms: number | null) => (ms === null ? '—' : `${ms} ms`) },
          { title: t('webhooks.error'), dataIndex: 'last_error', render: (e: string | null) => e ?? '' },
        ]}
      />
    </Drawer>
  );
}
