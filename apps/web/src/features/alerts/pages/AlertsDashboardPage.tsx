/**
 * alerts/dashboard (spec §2; §9 "Alerts show latest 100"): the latest alerts, newest first; new and changed alerts
 * arrive over the live channel and are merged in place, a new one with a chime (or the spec's "sound playback
 * blocked by browser" message). Acknowledge and resolve in the table or the drawer.
 */
import { ALERTS_LATEST_MAX, type TAlert } from '@tessera/contracts';
import { Alert, Badge, Card, Empty, Flex, Space, Table, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveAlerts, useLiveState } from '../../../lib/live';
import { useDashboardAlerts, useMergeIntoDashboard } from '../api';
import { AlertDrawer } from '../components/AlertDrawer';
import { ALERT_TABLE_WIDTH_PX, alertColumns } from '../components/alertColumns';
import { SoundControl } from '../components/SoundControl';
import { useAlertSound } from '../model/useAlertSound';

const LIVE_COLOR = { idle: 'default', connecting: 'processing', connected: 'success', reconnecting: 'warning' } as const;

/** The dashboard page. */
export default function AlertsDashboardPage() {
  const { t } = useTranslation();
  const dashboard = useDashboardAlerts();
  const merge = useMergeIntoDashboard();
  const sound = useAlertSound();
  const liveState = useLiveState();
  const [openId, setOpenId] = useState<number | null>(null);
  useLiveAlerts((m) => {
    if (merge(m.alert)) void sound.play();
  });
  const alerts = dashboard.data?.data ?? [];
  const open = alerts.find((a) => a.id === openId) ?? null;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Flex justify="space-between" align="start" wrap gap="middle">
        <div>
          <Typography.Title level={3} style={{ marginTop: 0 }}>
            {t('alerts.dashboard.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('alerts.dashboard.subtitle', { max: ALERTS_LATEST_MAX })}</Typography.Text>
        </div>
        <span data-testid="live-state" data-state={liveState}>
          <Badge status={LIVE_COLOR[liveState]} text={t(`alerts.dashboard.live.${liveState}`)} />
        </span>
      </Flex>
      <SoundControl state={sound.state} onEnable={() => void sound.enable()} onMuted={sound.setMuted} />
      {dashboard.isError && <Alert type="error" showIcon message={t('errors.loadFailed')} />}
      <Card size="small">
        <Table<TAlert>
          data-testid="alert-table"
          rowKey="id"
          size="middle"
          columns={alertColumns(t)}
          scroll={{ x: ALERT_TABLE_WIDTH_PX }}
          dataSource={alerts}
          loading={dashboard.isLoading}
          pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
          locale={{ emptyText: <Empty data-testid="alert-empty" description={t('alerts.dashboard.empty')} /> }}
          onRow={(a) =>
            ({
              'data-testid': `alert-row-${a.id}`,
              style: { cursor: 'pointer' },
              onClick: () => setOpenId(a.id),
            }) as HTMLAttributes<HTMLElement>
          }
        />
      </Card>
      <AlertDrawer alert={open} onClose={() => setOpenId(null)} />
    </Space>
  );
}
