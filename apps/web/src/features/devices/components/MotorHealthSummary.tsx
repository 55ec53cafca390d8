/**
 * The motor-health tab's head: the latest reading's zone (badge and meaning), its velocity and time, the machine class
 * used and where it came from (the bound machine or the default), the zone boundaries and how the values are read.
 */
import type { TMotorHealth } from '@tessera/contracts';
import { Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatLocalTime, formatValues } from '../model/format';
import { ZoneBadge } from './ZoneBadge';

/** The summary card of one answer. */
export function MotorHealthSummary({ health }: { health: TMotorHealth }) {
  const { t, i18n } = useTranslation();
  const { latest, boundaries_mm_s: b } = health;
  const cls = t(`devices.motorHealth.class.${health.machine_class}`);
  const mm = (v: number) => formatValues([v], i18n.language);
  return (
    <Card size="small" data-testid="motor-health-summary">
      <Space align="center" size="large" wrap>
        {latest ? (
          <>
            <ZoneBadge zone={latest.zone} testId="motor-health-zone" large />
            <Space direction="vertical" size={0}>
              <Typography.Text strong data-testid="motor-health-zone-meaning">
                {t(`devices.motorHealth.zoneMeaning.${latest.zone}`)}
              </Typography.Text>
              <Typography.Text data-testid="motor-health-latest">
                {t('devices.motorHealth.latest', { value: mm(latest.velocity_mm_s), unit: health.unit, time: formatLocalTime(latest.ts) })}
              </Typography.Text>
            </Space>
          </>
        ) : (
          <Typography.Text type="secondary" data-testid="motor-health-no-reading">
            {t('devices.motorHealth.noReading')}
          </Typography.Text>
        )}
      </Space>
      <Space direction="vertical" size={0} style={{ display: 'flex', marginTop: 12 }}>
        <Typography.Text data-testid="motor-health-class" data-class={health.machine_class} data-source={health.class_source}>
          {health.machine
            ? t('devices.motorHealth.classFromMachine', { cls, machine: health.machine.name })
            : t('devices.motorHealth.classDefault', { cls })}
        </Typography.Text>
        <Typography.Text type="secondary" data-testid="motor-health-boundaries">
          {t('devices.motorHealth.boundaries', { ab: mm(b.ab), bc: mm(b.bc), cd: mm(b.cd), unit: health.unit })}
        </Typography.Text>
        <Typography.Text type="secondary">{t('devices.motorHealth.assumption')}</Typography.Text>
      </Space>
    </Card>
  );
}
