/** Alert-list widget: the viewer's latest alerts (the alerts dashboard's list), updated live over the live channel. */
import type { TWidgetParameter } from '@tessera/contracts';
import { List, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLiveAlerts } from '../../../lib/live';
import { useDashboardAlerts, useMergeIntoDashboard } from '../../alerts/api';
import { LevelTag, StateTag } from '../../alerts/components/AlertTags';
import { formatLocalTime } from '../../devices/model/format';
import { NoData } from './WidgetMessage';

/** The widget body. */
export function AlertsWidget({ p }: { p: TWidgetParameter<'alerts'> }) {
  const { t } = useTranslation();
  const alerts = useDashboardAlerts();
  const merge = useMergeIntoDashboard();
  useLiveAlerts((m) => void merge(m.alert));
  const rows = (alerts.data?.data ?? []).slice(0, p.limit);
  if (alerts.isSuccess && rows.length === 0) return <NoData />;
  return (
    <List
      size="small"
      loading={alerts.isLoading}
      dataSource={rows}
      data-testid="widget-alerts"
      renderItem={(a) => (
        <List.Item key={a.id} data-testid={`widget-alert-${a.id}`}>
          <Space size={4} wrap>
            <LevelTag level={a.level} />
            <StateTag state={a.state} />
            <Typography.Text>{a.message}</Typography.Text>
            <Typography.Text type="secondary">
              {a.device.name} · {formatLocalTime(a.last_seen_at)}
            </Typography.Text>
          </Space>
        </List.Item>
      )}
      footer={<Link to="/alerts/dashboard">{t('dashboard.allAlerts')}</Link>}
    />
  );
}
