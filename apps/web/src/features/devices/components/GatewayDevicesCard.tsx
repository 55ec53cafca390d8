/**
 * "Devices behind this gateway" card of a gateway's page (docs/decisions/device-apis.md "Gateway"): the devices it
 * connected by name, whether it holds them connected now, online, and when they were last heard from; each links to
 * its own page. Read again every 10 s.
 */
import type { TGatewayChild } from '@tessera/contracts';
import { Alert, Card, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useGatewayDevices } from '../gatewayApi';
import { formatLocalTime } from '../model/format';
import { OnlineBadge } from './OnlineBadge';

/** The card; rows carry `data-testid="gateway-device-{tangram_id}"`. */
export function GatewayDevicesCard({ tangramId }: { tangramId: string }) {
  const { t } = useTranslation();
  const list = useGatewayDevices(tangramId);
  return (
    <Card size="small" title={t('devices.gateway.devicesTitle')} data-testid="gateway-devices-card">
      <Typography.Paragraph type="secondary">{t('devices.gateway.devicesExplain')}</Typography.Paragraph>
      {list.isError ? (
        <Alert type="error" showIcon message={t('devices.gateway.loadFailed')} />
      ) : (
        <Table<TGatewayChild>
          size="small"
          rowKey="tangram_id"
          loading={list.isPending}
          dataSource={list.data?.items ?? []}
          pagination={false}
          locale={{ emptyText: t('devices.gateway.empty') }}
          onRow={(row) => ({ 'data-testid': `gateway-device-${row.tangram_id}` }) as object}
          columns={[
            {
              title: t('devices.gateway.name'),
              dataIndex: 'name',
              render: (name: string, row) => <Link to={`/device/detail/${row.tangram_id}`}>{name}</Link>,
            },
            {
              title: t('devices.gateway.connected'),
              dataIndex: 'connected',
              render: (connected: boolean) => (
                <Tag color={connected ? 'green' : undefined} data-testid="gateway-device-connected" data-connected={connected}>
                  {connected ? t('devices.gateway.yes') : t('devices.gateway.no')}
                </Tag>
              ),
            },
            { title: t('devices.gateway.online'), dataIndex: 'online', render: (online: boolean) => <OnlineBadge online={online} /> },
            {
              title: t('devices.gateway.lastSeen'),
              dataIndex: 'last_seen_at',
              render: (at: number | null) => (at === null ? '—' : formatLocalTime(at)),
            },
          ]}
        />
      )}
    </Card>
  );
}
