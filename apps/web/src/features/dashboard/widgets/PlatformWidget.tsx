/**
 * Platform-telemetry widget: a platform telemetry's latest value with its unit and age, read again every few
 * seconds, over its trend for the widget's range (docs/dashboard.md "Widgets"). One the viewer may no longer read
 * (deleted, or the account lost the section) says so.
 */
import type { TWidgetParameter } from '@tessera/contracts';
import { Flex } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TChartOption } from '../../../lib/charts';
import { EChart } from '../../devices/components/EChart';
import { formatAge, formatValues } from '../../devices/model/format';
import { usePlatformTelemetry, usePlatformTelemetrySeries } from '../../platform-telemetry/api';
import { useNow } from '../../../lib/useNow';
import { Loading, NoData } from './WidgetMessage';
import { Text } from '../../../components/Text';

/** The widget body; `height` is what the card's body has, in pixels. */
export function PlatformWidget({ p, height }: { p: TWidgetParameter<'platform'>; height: number }) {
  const { t, i18n } = useTranslation();
  const pt = usePlatformTelemetry(p.platform_telemetry_id);
  const now = useNow();
  // The trend's range ends when the widget was drawn; it moves with each new value.
  const [end, setEnd] = useState(() => Date.now());
  const latestTs = pt.data?.latest_ts ?? null;
  if (latestTs !== null && latestTs > end) setEnd(Date.now());
  const series = usePlatformTelemetrySeries(p.platform_telemetry_id, [end - p.range_ms, end]);
  const option = useMemo<TChartOption>(
    () => ({
      animation: false,
      grid: { left: 40, right: 8, top: 8, bottom: 20 },
      tooltip: { trigger: 'axis', valueFormatter: (v) => formatValues([typeof v === 'number' ? v : null], i18n.language) },
      xAxis: { type: 'time', min: end - p.range_ms, max: end },
      yAxis: { type: 'value', scale: true },
      series: [
        { type: 'line', data: (series.data?.points ?? []).map((pt) => [pt.ts, pt.vs[0] ?? null]), showSymbol: false, areaStyle: {} },
      ],
    }),
    [series.data, end, p.range_ms, i18n.language],
  );
  const status = (pt.error as { status?: number } | null)?.status;
  if (status === 403 || status === 404)
    return (
      <Text type="warning" testId="widget-platform-gone">
        {t('dashboard.platformGone')}
      </Text>
    );
  if (pt.isLoading) return <Loading />;
  if (!pt.data) return <NoData />;
  const chartHeight = Math.max(40, height - 72);
  return (
    <Flex vertical style={{ height: '100%' }}>
      <Flex align="baseline" gap={8} wrap>
        <Text style={{ fontSize: 28, fontWeight: 600 }} testId="widget-platform-value">
          {pt.data.latest_value === null ? '—' : formatValues([pt.data.latest_value], i18n.language)}
          {pt.data.unit ? <span style={{ fontSize: 14, marginLeft: 4 }}>{pt.data.unit}</span> : null}
        </Text>
        <Text type="secondary">
          {pt.data.name}
          {latestTs !== null ? ` · ${formatAge(latestTs, Math.max(now, latestTs), i18n.language)}` : ''}
        </Text>
      </Flex>
      <EChart option={option} points={series.data?.points.length ?? 0} testId="widget-platform-chart" height={chartHeight} />
    </Flex>
  );
}
