/**
 * The delivery state of one alert's notifications: every mail and
 * LINE push, with status, attempts, last error and when it was sent. Refreshes by itself while something is pending
 * (an SMTP outage shows as "retrying" with the error, then turns to "sent"). Embedded in the alert drawer.
 */
import type { TAlertDelivery, TDeliveryStatus } from '@tessera/contracts';
import { Alert, Empty, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlertDeliveries } from './api';

const STATUS_COLOR: Record<TDeliveryStatus, string> = {
  pending: 'gold',
  sent: 'green',
  failed: 'red',
  stored: 'default',
  quota_exceeded: 'volcano',
};

/** Props: the alert whose deliveries to show. */
export interface TAlertDeliveriesProps {
  alertId: number;
}

/** The deliveries table; `data-testid="alert-deliveries"`, rows `delivery-row-{channel}-{to}`. */
export function AlertDeliveries({ alertId }: TAlertDeliveriesProps) {
  const { t } = useTranslation();
  const deliveries = useAlertDeliveries(alertId);
  if (deliveries.isError) return <Alert type="error" showIcon message={t('errors.loadFailed')} />;
  return (
    <Table<TAlertDelivery>
      size="small"
      rowKey={(d) => `${d.channel}-${d.id}`}
      loading={deliveries.isLoading}
      dataSource={deliveries.data?.data ?? []}
      pagination={false}
      data-testid="alert-deliveries"
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notifications.deliveries.empty')} /> }}
      onRow={(d) => ({ 'data-testid': `delivery-row-${d.channel}-${d.to}` }) as HTMLAttributes<HTMLElement>}
      columns={[
        {
          title: t('notifications.deliveries.channel'),
          dataIndex: 'channel',
          render: (c: TAlertDelivery['channel']) => <Tag>{t(`notifications.channels.${c}`)}</Tag>,
        },
        { title: t('notifications.deliveries.to'), dataIndex: 'to', ellipsis: true },
        {
          title: t('notifications.deliveries.status'),
          dataIndex: 'status',
          render: (s: TDeliveryStatus) => (
            <Tag color={STATUS_COLOR[s]} data-testid="delivery-status">
              {t(`notifications.deliveries.statuses.${s}`)}
            </Tag>
          ),
        },
        { title: t('notifications.deliveries.attempts'), dataIndex: 'attempts', width: 80 },
        {
          title: t('notifications.deliveries.lastError'),
          dataIndex: 'last_error',
          ellipsis: true,
          render: (e: string | null) => (e ? <Typography.Text type="danger">{e}</Typography.Text> : '—'),
        },
        {
          title: t('notifications.deliveries.sentAt'),
          dataIndex: 'sent_at',
          render: (ms: number | null) => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '—'),
        },
      ]}
    />
  );
}

export default AlertDeliveries;
