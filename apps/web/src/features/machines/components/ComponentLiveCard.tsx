/**
 * One component on the machine page: the device bound to it (a link to its detail page, online state) and the
 * latest value of each of the component's keys with its unit and age, kept current from the live channel — the
 * device detail's own hooks (detail, twin, live twin), so both pages share one cache and one subscription. A
 * component showing the vibration key also shows its ISO 10816-3 zone for the machine's class, from the same live
 * value, linked to the device's motor-health tab (docs/decisions/motor-health.md).
 */
import {
  MOTOR_HEALTH_KEY,
  type TMachineClass,
  type TMachineInstanceComponent,
  worstAxisVelocity,
  zoneOfVelocity,
} from '@tessera/contracts';
import { Card, Descriptions, Empty, Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useNow } from '../../../lib/useNow';
import { useDeviceDetail, useDeviceTwin } from '../../devices/api';
import { OnlineBadge } from '../../devices/components/OnlineBadge';
import { ZoneBadge } from '../../devices/components/ZoneBadge';
import { formatAge, formatValues } from '../../devices/model/format';
import { useLiveTwin } from '../../devices/useLiveTwin';

/** The values of a bound device's keys, live. */
function BoundDevice({
  component,
  device,
  machineClass,
}: {
  component: TMachineInstanceComponent;
  device: NonNullable<TMachineInstanceComponent['device']>;
  machineClass: TMachineClass;
}) {
  const { t, i18n } = useTranslation();
  const detail = useDeviceDetail(device.tangram_id);
  const twin = useDeviceTwin(device.tangram_id);
  useLiveTwin(device.tangram_id, detail.data?.status_groups);
  const now = useNow();
  if (detail.isLoading || twin.isLoading) return <Skeleton active paragraph={{ rows: component.keys.length }} />;
  const vibration = component.keys.includes(MOTOR_HEALTH_KEY) ? twin.data?.telemetry.find((v) => v.key === MOTOR_HEALTH_KEY) : undefined;
  const velocity = vibration ? worstAxisVelocity(vibration.vs) : null;
  const zone = velocity === null ? null : zoneOfVelocity(velocity, machineClass);
  return (
    <>
      <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
        <Link to={`/device/detail/${device.tangram_id}/telemetry-status`} data-testid={`component-device-${component.id}`}>
          {device.name}
        </Link>
        {detail.data && <OnlineBadge online={detail.data.online} />}
      </Flex>
      <Descriptions
        size="small"
        column={1}
        bordered
        items={component.keys.map((key) => {
          const sensor = detail.data?.sensors.find((s) => s.key === key);
          const value = twin.data?.telemetry.find((v) => v.key === key);
          return {
            key,
            label: sensor?.name ? `${sensor.name} (${key})` : key,
            children: (
              <Flex justify="space-between" gap={8} wrap>
                <Typography.Text strong data-testid={`component-value-${component.id}-${key}`}>
                  {value ? formatValues(value.vs, i18n.language) : '—'}
                  {value && sensor?.unit ? ` ${sensor.unit}` : ''}
                </Typography.Text>
                <Typography.Text type="secondary">
                  {value ? formatAge(value.ts, Math.max(now, value.ts), i18n.language) : t('machines.page.noValue')}
                </Typography.Text>
              </Flex>
            ),
          };
        })}
      />
      {zone && (
        <Link to={`/device/detail/${device.tangram_id}/motor-health`} data-testid={`component-health-${component.id}`}>
          <Flex align="center" gap={8} style={{ marginTop: 12 }}>
            <ZoneBadge zone={zone} testId={`component-zone-${component.id}`} />
            <Typography.Text>{t(`devices.motorHealth.zoneMeaning.${zone}`)}</Typography.Text>
          </Flex>
        </Link>
      )}
    </>
  );
}

/**
 * The component's card; `isVendor` decides what an empty card says (bind one, or not shared with you), `machineClass`
 * the zone boundaries of a vibration key.
 */
export function ComponentLiveCard({
  component,
  isVendor,
  machineClass,
}: {
  component: TMachineInstanceComponent;
  isVendor: boolean;
  machineClass: TMachineClass;
}) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={component.name}
      extra={<Typography.Text type="secondary">{component.product_name}</Typography.Text>}
      data-testid={`machine-component-${component.id}`}
      style={{ height: '100%' }}
    >
      {component.device ? (
        <BoundDevice component={component} device={component.device} machineClass={machineClass} />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={isVendor ? t('machines.page.unbound') : t('machines.page.unboundUser')} />
      )}
    </Card>
  );
}
