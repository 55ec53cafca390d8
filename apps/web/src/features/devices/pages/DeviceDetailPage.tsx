/**
 * Device detail layout (spec §2 `device/detail/{id}`): header (name, nickname, Tangram ID, online) and the tabs
 * built so far — telemetry-status, history-chart, realtime-chart, app-rules, remote-control, and custom-page when the
 * device's project has a page — plus the push switch and (vendors) the edit button. It holds the live subscription
 * so the twin stays current whichever tab is open.
 */
import { Alert, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { useDeviceDetail } from '../api';
import { DeviceEditButton } from '../components/DeviceEditModal';
import { OnlineBadge } from '../components/OnlineBadge';
import { PushSwitch } from '../components/PushSwitch';
import { getSession } from '../../../lib/session';
import type { TDeviceOutlet } from '../context';
import { useLiveTwin } from '../useLiveTwin';
import { useHasCustomPage } from '../../custom-page/api';

const TABS = ['telemetry-status', 'history-chart', 'realtime-chart', 'app-rules', 'remote-control', 'custom-page'] as const;

/** The device detail page with its tabs. */
export default function DeviceDetailPage() {
  const { t } = useTranslation();
  const { tangramId = '' } = useParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const detail = useDeviceDetail(tangramId);
  useLiveTwin(tangramId, detail.data?.status_groups);
  const hasCustomPage = useHasCustomPage(detail.data?.project_id);

  if (detail.isPending) return <Spin data-testid="device-loading" />;
  if (detail.isError) return <Alert type="error" showIcon data-testid="device-error" message={t('devices.detail.notFound')} />;
  const device = detail.data;
  const active = TABS.find((tab) => pathname.endsWith(`/${tab}`)) ?? TABS[0];
  const context: TDeviceOutlet = { device };

  return (
    <Space direction="vertical" size="small" style={{ width: '100%' }}>
      <Space align="baseline" wrap size="middle">
        <Typography.Title level={3} data-testid="device-name" style={{ margin: 0 }}>
          {device.name}
        </Typography.Title>
        {device.nickname && <Tag data-testid="device-nickname">{device.nickname}</Tag>}
        <Typography.Text code copyable data-testid="device-tangram-id">
          {device.tangram_id}
        </Typography.Text>
        <OnlineBadge online={device.online} testId="device-online" />
        <PushSwitch tangramId={device.tangram_id} />
        {getSession().level !== 'user' && <DeviceEditButton device={device} />}
      </Space>
      <Tabs
        data-testid="device-tabs"
        activeKey={active}
        onChange={(key) => navigate(key)}
        items={TABS.filter((key) => key !== 'custom-page' || hasCustomPage).map((key) => ({
          key,
          label: <span data-testid={`tab-${key}`}>{t(`devices.tab.${key}`)}</span>,
        }))}
      />
      <Outlet context={context} />
    </Space>
  );
}
