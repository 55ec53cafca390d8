/** ECharts line option of the device charts: a time axis, one line per value (v1..v3), tooltip, legend, zoom. */
import type { TChartOption } from '../../../lib/charts';
import { formatValues } from './format';
import type { TLine } from './series';

/** Chart settings: the lines with their names, the x range (epoch ms), whether to add dataZoom, unit and locale. */
export interface TLineChartInput {
  lines: readonly TLine[];
  names: readonly string[];
  xMin: number;
  xMax: number;
  zoom: boolean;
  unit: string;
  /** The console language, for tooltip numbers (at most 3 decimals). */
  locale: string;
}

/** Builds the option; axis and tooltip times show in the browser's local time (ECharts' default for `time`). */
export function toLineOption({ lines, names, xMin, xMax, zoom, unit, locale }: TLineChartInput): TChartOption {
  return {
    animation: false,
    grid: { left: 56, right: 24, top: 36, bottom: zoom ? 72 : 32 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => formatValues([typeof v === 'number' ? v : null], locale) },
    legend: { show: lines.length > 1, top: 0 },
    xAxis: { type: 'time', min: xMin, max: xMax },
    yAxis: { type: 'value', scale: true, name: unit || undefined },
    dataZoom: zoom ? [{ type: 'inside' }, { type: 'slider' }] : [],
    series: lines.map((data, i) => ({
      type: 'line',
      name: names[i] ?? `v${i + 1}`,
      data: data as [number, number | null][],
      showSymbol: data.length < 60,
      connectNulls: false,
    })),
  };
}
