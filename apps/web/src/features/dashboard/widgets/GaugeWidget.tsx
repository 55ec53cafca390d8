/**
 * Gauge widget: one key's newest value between min and max, the arc coloured by thresholds; live. Its scale shows as
 * many labels as fit and the value sits below the arc's ends (gaugeLayout.ts), so no label collides or hides. A live
 * value only moves the pointer and the number (a patch merged into the drawn chart, lib/useEChart), at most once per
 * animation frame; the scale, colours and labels are built again only when the widget's settings, unit, language or
 * size change.
 */
import type { TWidgetParameter } from '@tessera/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../devices/components/EChart';
import { formatValues } from '../../devices/model/format';
import type { TChartOption } from '../../../lib/charts';
import {
  GAUGE_AXIS_WIDTH,
  GAUGE_END_DEG,
  GAUGE_LABEL_DISTANCE,
  GAUGE_LABEL_FONT,
  GAUGE_RADIUS_SHARE,
  GAUGE_START_DEG,
  GAUGE_VALUE_FONT,
  GAUGE_VALUE_OFFSET,
  gaugeLabel,
  gaugeSplitNumber,
} from './gaugeLayout';
import { useWidgetDevice } from './useWidgetDevice';
import { DeviceGone, Loading, NoData } from './WidgetMessage';

const BELOW = '#52c41a';

/** The gauge's arc colours: green up to the first threshold, then each threshold's colour up to the next. */
export function gaugeStops(min: number, max: number, thresholds: readonly { value: number; color: string }[]): [number, string][] {
  const span = max - min;
  const sorted = [...thresholds].filter((t) => t.value > min && t.value < max).sort((a, b) => a.value - b.value);
  const stops: [number, string][] = [];
  let color = BELOW;
  for (const t of sorted) {
    stops.push([(t.value - min) / span, color]);
    color = t.color;
  }
  stops.push([1, color]);
  return stops;
}

/** The widget body. */
export function GaugeWidget({ p, height }: { p: TWidgetParameter<'gauge'>; height: number }) {
  const { i18n } = useTranslation();
  const { detail, twin, gone, loading } = useWidgetDevice(p.tangram_id);
  const value = twin?.telemetry.find((v) => v.key === p.key)?.vs[0] ?? null;
  const unit = detail?.sensors.find((s) => s.key === p.key)?.unit ?? '';
  const option = useMemo<TChartOption>(
    () => ({
      animation: false,
      series: [
        {
          type: 'gauge',
          min: p.min,
          max: p.max,
          startAngle: GAUGE_START_DEG,
          endAngle: GAUGE_END_DEG,
          radius: `${GAUGE_RADIUS_SHARE * 100}%`,
          center: ['50%', '55%'],
          splitNumber: gaugeSplitNumber(height, p.min, p.max),
          axisLine: { lineStyle: { width: GAUGE_AXIS_WIDTH, color: gaugeStops(p.min, p.max, p.thresholds) } },
          axisTick: { distance: 0, length: 4 },
          splitLine: { distance: 0, length: 8 },
          axisLabel: { distance: GAUGE_LABEL_DISTANCE, fontSize: GAUGE_LABEL_FONT, formatter: gaugeLabel },
          pointer: { width: 4, length: '60%' },
          detail: {
            formatter: (shown: number) => `${formatValues([shown], i18n.language)} ${unit}`,
            fontSize: GAUGE_VALUE_FONT,
            offsetCenter: [0, `${GAUGE_VALUE_OFFSET * 100}%`],
          },
        },
      ],
    }),
    [p, unit, i18n.language, height],
  );
  const patch = useMemo<TChartOption>(() => ({ series: [{ type: 'gauge', data: [{ value: value ?? p.min }] }] }), [value, p.min]);
  if (gone) return <DeviceGone tangramId={p.tangram_id} />;
  if (loading) return <Loading />;
  if (value === null) return <NoData />;
  return (
    <div data-testid="widget-gauge" data-value={value}>
      <EChart option={option} patch={patch} points={1} testId="widget-gauge-chart" height={height} />
    </div>
  );
}
