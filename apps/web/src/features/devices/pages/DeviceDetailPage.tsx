/**
 * Device detail layout (spec §2 `device/detail/{id}`): header (name, nickname, Tangram ID, online) and the tabs
 * built so far — telemetry-status, history-chart, realtime-chart, app-rules, motor-health when the device has a
 * vibration key, remote-control, and custom-page when the device's project has a page; only those the caller's permissions open (model/permissions.ts) — plus the push switch and (vendors) the edit, authorisation QR code, regenerate-secret, access-token, certificate and LoRaWAN DevEUI buttons and the gateway switch. It holds the live subscription
 * so the twin stays current whichever tab is open.
 */
import { MOTOR_HEALTH_KEY } from '@tessera/contracts';
import { Alert, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { PageError } from '../../../components/PageState';
import { useDeviceDetail } from '../api';
import { DeviceEditButton } from '../components/DeviceEditModal';
import { OnlineBadge } from '../components/OnlineBadge';
import { PushSwitch } from '../components/PushSwitch';
import { RegenerateSecretButton } from '../components/RegenerateSecretButton';
import { AccessTokenButton } from '../components/AccessTokenButton';
import { CertificateButton } from '../components/CertificateButton';
import { GatewaySwitch } from '../components/GatewaySwitch';
import { DevEuiButton } from '../../lorawan/DevEuiButton';
import { getSession } from '../../../lib/session';
import type { TDeviceOutlet } from '../context';
import { allowedTabs, DEVICE_TABS } from '../model/permissions';
import { useLiveTwin } from '../useLiveTwin';
import { useHasCustomPage } from '../../custom-pages/api';
import { ClaimQrButton } from '../../authorisation/components/ClaimQrButton';

/** The device detail page with its tabs. */
export default function DeviceDetailPage() {
  const { t } = useTranslation();
  const { tangramId = '' } = useParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const detail = useDeviceDetail(tangramId);
  const seesTelemetry = detail.data?.permissions.includes('view_telemetry') ?? false;
  useLiveTwin(tangramId, seesTelemetry ? detail.data?.status_groups : undefined);
  const hasCustomPage = useHasCustomPage(detail.data?.project_id);

  if (detail.isPending) return <Spin data-testid="device-loading" />;
  if (detail.isError) return <PageError error={detail.error} back="/device/list" />;
  const device = detail.data;
  const hasVibrationKey = device.sensors.some((s) => s.key === MOTOR_HEALTH_KEY);
  const tabs = allowedTabs(device.permissions, { hasCustomPage, hasVibrationKey });
  const active = DEVICE_TABS.find((tab) => pathname.endsWith(`/${tab}`)) ?? DEVICE_TABS[0];
  const context: TDeviceOutlet = { device };
  // A tab the caller's role does not open (a link, the default tab): go to the first one it does open.
  if (!tabs.includes(active) && active !== 'custom-page' && tabs.length > 0) {
    return <Navigate to={`/device/detail/${device.tangram_id}/${tabs[0]}`} replace />;
  }

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
        {device.permissions.includes('receive_alerts') && <PushSwitch tangramId={device.tangram_id} />}
        {getSession().level !== 'user' && <DeviceEditButton device={device} />}
        {getSession().level !== 'user' && <ClaimQrButton tangramId={device.tangram_id} name={device.name} />}
        {getSession().level !== 'user' && <RegenerateSecretButton tangramId={device.tangram_id} />}
        {getSession().level !== 'user' && <AccessTokenButton tangramId={device.tangram_id} />}
        {getSession().level !== 'user' && <CertificateButton tangramId={device.tangram_id} />}
        {getSession().level !== 'user' && <DevEuiButton tangramId={device.tangram_id} />}
        {getSession().level !== 'user' && <GatewaySwitch tangramId={device.tangram_id} isGateway={device.is_gateway} />}
      </Space>
      <Tabs
        data-testid="device-tabs"
        activeKey={active}
        onChange={(key) => navigate(key)}
        items={tabs.map((key) => ({
          key,
          label: <span data-testid={`tab-${key}`}>{t(`devices.tab.${key}`)}</span>,
        }))}
      />
      {tabs.length > 0 ? (
        <Outlet context={context} />
      ) : (
        <Alert type="info" showIcon data-testid="device-no-permission" message={t('devices.detail.noPermission')} />
      )}
    </Space>
  );
}
