/**
 * telemetry-status tab (spec §2): a card per sensor key with its latest value, the decoded status, and the device's
 * attributes (ThingsBoard's device API), and on a gateway the devices behind it. The twin
 * comes from deviceTwins and is kept current by the live channel (subscribed in the detail layout).
 */
import { Alert, Col, Empty, Row, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDeviceTwin } from '../api';
import { useDeviceOutlet } from '../context';
import { AttributesCard } from '../components/AttributesCard';
import { GatewayDevicesCard } from '../components/GatewayDevicesCard';
import { LiveState } from '../components/LiveState';
import { getSession } from '../../../lib/session';
import { StatusPanel } from '../components/StatusPanel';
import { TelemetryCard } from '../components/TelemetryCard';
import { toTelemetryCards } from '../model/twin';

/** The telemetry-status page. */
export default function TelemetryStatusPage() {
  const { t } = useTranslation();
  const { device } = useDeviceOutlet();
  const twin = useDeviceTwin(device.tangram_id);
  if (twin.isPending) return <Spin />;
  if (twin.isError) return <Alert type="error" showIcon message={t('devices.loadFailed')} />;
  const cards = toTelemetryCards(device.sensors, twin.data?.telemetry ?? []);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <LiveState />
      {cards.length === 0 ? (
        <Empty data-testid="telemetry-empty" description={t('devices.telemetry.empty')} />
      ) : (
        <Row gutter={[16, 16]}>
          {cards.map((card) => (
            <Col key={card.key} xs={24} sm={12} lg={8} xl={6}>
              <TelemetryCard card={card} />
            </Col>
          ))}
        </Row>
      )}
      <StatusPanel status={twin.data?.status ?? null} />
      <AttributesCard tangramId={device.tangram_id} canEdit={getSession().level !== 'user'} />
      {device.is_gateway && <GatewayDevicesCard tangramId={device.tangram_id} />}
    </Space>
  );
}
