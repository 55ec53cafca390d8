/**
 * ECharts option of the motor-health chart (docs/decisions/motor-health.md): the velocity line over the range, on the
 * ISO 10816-3 zones of the machine class drawn as coloured bands (A green, B cyan, C amber, D red) behind it.
 */
import { type TMotorHealth, type TVibrationZone, VIBRATION_ZONES } from '@tessera/contracts';
import { MarkAreaComponent } from 'echarts/components';
import { echarts, type TChartOption } from '../../../lib/charts';
import { formatValues } from './format';

// The zone bands are mark areas, which only this chart draws: registered here, in the motor-health page's chunk.
echarts.use([MarkAreaComponent]);

/** The colour of each zone: badge, hours table and chart band. */
export const ZONE_COLORS: Record<TVibrationZone, string> = { A: '#52c41a', B: '#13c2c2', C: '#faad14', D: '#f5222d' };
/** The opacity of the zone bands behind the line. */
const BAND_OPACITY = 0.12;
/** Room above the C/D boundary (× that boundary) so zone D shows as a band even with nothing in it. */
const HEADROOM = 1.25;

/** Chart input: the answer's series and boundaries, the x range (epoch ms), the line's name and the console language. */
export interface TMotorHealthChartInput {
  series: TMotorHealth['series'];
  boundaries: TMotorHealth['boundaries_mm_s'];
  xMin: number;
  xMax: number;
  name: string;
  unit: string;
  /** Label of each zone's band, e.g. "A" or "區域 A". */
  zoneLabels: Record<TVibrationZone, string>;
  locale: string;
}

/** The y range of each zone band in mm/s: A from 0, D up to the chart's top `yMax`. */
export function zoneBands(boundaries: TMotorHealth['boundaries_mm_s'], yMax: number): Record<TVibrationZone, [number, number]> {
  return { A: [0, boundaries.ab], B: [boundaries.ab, boundaries.bc], C: [boundaries.bc, boundaries.cd], D: [boundaries.cd, yMax] };
}

/** The top of the y axis (mm/s): above the C/D boundary and above the highest value, so every band and point shows. */
export function chartTop(series: TMotorHealth['series'], boundaries: TMotorHealth['boundaries_mm_s']): number {
  const highest = series.reduce((m, p) => Math.max(m, p.velocity_mm_s), 0);
  return Math.max(boundaries.cd * HEADROOM, highest * 1.1);
}

/** Builds the option; times show in the browser's local time (ECharts' default for `time`). */
export function toMotorHealthOption({
  series,
  boundaries,
  xMin,
  xMax,
  name,
  unit,
  zoneLabels,
  locale,
}: TMotorHealthChartInput): TChartOption {
  const yMax = chartTop(series, boundaries);
  const bands = zoneBands(boundaries, yMax);
  return {
    animation: false,
    grid: { left: 56, right: 56, top: 36, bottom: 32 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => `${formatValues([typeof v === 'number' ? v : null], locale)} ${unit}` },
    xAxis: { type: 'time', min: xMin, max: xMax },
    yAxis: { type: 'value', min: 0, max: Number(yMax.toFixed(2)), name: unit },
    series: [
      {
        type: 'line',
        name,
        data: series.map((p) => [p.ts, p.velocity_mm_s]),
        showSymbol: series.length < 60,
        lineStyle: { color: '#1f1f1f', width: 1.5 },
        itemStyle: { color: '#1f1f1f' },
        markArea: {
          silent: true,
          label: { position: 'insideRight', color: '#595959' },
          data: VIBRATION_ZONES.map((zone) => [
            { name: zoneLabels[zone], yAxis: bands[zone][0], itemStyle: { color: ZONE_COLORS[zone], opacity: BAND_OPACITY } },
            { yAxis: bands[zone][1] },
          ]),
        },
      },
    ],
  };
}
