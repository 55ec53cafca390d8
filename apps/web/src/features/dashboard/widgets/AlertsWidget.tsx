/**
 * Alert-list widget: the viewer's latest alerts (the alerts dashboard's list), updated live over the live channel.
 * A plain list drawn with antd's theme tokens: antd's List imports its pagination and, through it, the select
 * (about 32 KB br of a dashboard) for a few lines that never page.
 */
import type { TWidgetParameter } from '@tessera/contracts';
import { Space, Spin, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLiveAlerts } from '../../../lib/live';
import { useDashboardAlerts, useMergeIntoDashboard } from '../../alerts/api';
import { LevelTag, StateTag } from '../../alerts/components/AlertTags';
import { formatLocalTime } from '../../devices/model/format';
import { NoData } from './WidgetMessage';
import { Text } from '../../../components/Text';

/** The widget body. */
export function AlertsWidget({ p }: { p: TWidgetParameter<'alerts'> }) {
  const { t } = useTranslation();
  const alerts = useDashboardAlerts();
  const merge = useMergeIntoDashboard();
  useLiveAlerts((m) => void merge(m.alert));
  const rows = (alerts.data?.data ?? []).slice(0, p.limit);
  const { token } = theme.useToken();
  if (alerts.isSuccess && rows.length === 0) return <NoData />;
  const line = `${token.lineWidth}px ${token.lineType} ${token.colorSplit}`;
  // antd's small list: 8 px above and below each line, a hairline between them and above the footer.
  return (
    <div data-testid="widget-alerts" aria-busy={alerts.isLoading}>
      {alerts.isLoading ? (
        <div style={{ padding: token.paddingXS, textAlign: 'center' }}>
          <Spin size="small" />
        </div>
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {rows.map((a) => (
            <li key={a.id} data-testid={`widget-alert-${a.id}`} style={{ padding: `${token.paddingXS}px 0`, borderBottom: line }}>
              <Space size={4} wrap>
                <LevelTag level={a.level} />
                <StateTag state={a.state} />
                <Text>{a.message}</Text>
                <Text type="secondary">
                  {a.device.name} · {formatLocalTime(a.last_seen_at)}
                </Text>
              </Space>
            </li>
          ))}
        </ul>
      )}
      <div style={{ padding: `${token.paddingXS}px 0` }}>
        <Link to="/alerts/dashboard">{t('dashboard.allAlerts')}</Link>
      </div>
    </div>
  );
}
