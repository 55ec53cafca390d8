/**
 * motor-health tab (spec §2 device detail; docs/decisions/motor-health.md): the device's vibration velocity judged by
 * the ISO 10816-3 zones of its machine class — the latest reading's zone, the velocity over a chosen range on the zone
 * bands, and the hours spent in each zone. The tab is only offered for a device with a vibration key
 * (model/permissions.ts); the range picker is the history chart's.
 */
import { DEFAULT_CHART_WIDTH, type TVibrationZone } from '@tessera/contracts';
import { Alert, Empty, message, Space, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../components/EChart';
import { HistoryRangePicker } from '../components/HistoryRangePicker';
import { MotorHealthSummary } from '../components/MotorHealthSummary';
import { ZoneHoursTable } from '../components/ZoneHoursTable';
import { useDeviceOutlet } from '../context';
import { toMotorHealthOption } from '../model/motorHealthOption';
import { defaultRange, type TRange } from '../model/range';
import { useMotorHealth } from '../motorHealthApi';

/** The motor-health page. */
export default function MotorHealthPage() {
  const { t, i18n } = useTranslation();
  const { device } = useDeviceOutlet();
  const [range, setRange] = useState<TRange>(() => defaultRange(Date.now()));
  const health = useMotorHealth(device.tangram_id, { startTs: range[0], endTs: range[1], width: DEFAULT_CHART_WIDTH });
  const data = health.data;

  const option = useMemo(() => {
    if (!data) return null;
    const label = (zone: TVibrationZone) => t('devices.motorHealth.zoneLabel', { zone });
    return toMotorHealthOption({
      series: data.series,
      boundaries: data.boundaries_mm_s,
      xMin: range[0],
      xMax: range[1],
      name: t('devices.motorHealth.chartName'),
      unit: data.unit,
      zoneLabels: { A: label('A'), B: label('B'), C: label('C'), D: label('D') },
      locale: i18n.language,
    });
  }, [data, range, t, i18n.language]);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap align="start">
        <HistoryRangePicker
          value={range}
          testId="motor-health-range"
          onChange={(next, clamped) => {
            if (clamped) void message.warning(t('devices.history.clamped'));
            setRange(next);
          }}
        />
        {health.isFetching && <Spin size="small" />}
      </Space>
      {health.isError && <Alert type="error" showIcon message={t('devices.loadFailed')} />}
      {data && (
        <>
          <MotorHealthSummary health={data} />
          {data.series.length === 0 ? (
            <Empty data-testid="motor-health-empty" description={t('devices.motorHealth.empty')} />
          ) : (
            option && <EChart testId="motor-health-chart" option={option} points={data.series.length} />
          )}
          <ZoneHoursTable hours={data.hours} />
        </>
      )}
    </Space>
  );
}
