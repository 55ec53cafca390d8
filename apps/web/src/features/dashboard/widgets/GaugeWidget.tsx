/** Gauge widget: one key's newest value between min and max, the arc coloured by thresholds; live. */
import type { TWidgetParameter } from '@tessera/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../devices/components/EChart';
import { formatValues } from '../../devices/model/format';
import type { TChartOption } from '../../../lib/charts';
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
          axisLine: { lineStyle: { width: 12, color: gaugeStops(p.min, p.max, p.thresholds) } },
          pointer: { width: 4 },
          detail: { formatter: () => `${formatValues([value], i18n.language)} ${unit}`, fontSize: 18 },
          data: [{ value: value ?? p.min }],
        },
      ],
    }),
    [p, value, unit, i18n.language],
  );
  if (gone) return <DeviceGone tangramId={p.tangram_id} />;
  if (loading) return <Loading />;
  if (value === null) return <NoData />;
  return (
    <div data-testid="widget-gauge" data-value={value}>
      <EChart option={option} points={1} testId="widget-gauge-chart" height={height} />
    </div>
  );
}
