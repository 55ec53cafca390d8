/**
 * The console's ECharts build: echarts/core with only what the device charts and the dashboard's chart widgets draw
 * (line and gauge series, grid, tooltip, dataZoom, legend, canvas), so the chart chunk stays small. Bars
 * (lib/chartsBar.ts) and mark areas (features/devices/model/motorHealthOption.ts) are registered by the few charts
 * that draw them, in their own lazy chunks: a dashboard without a bar widget does not load them. Import `echarts` and
 * `TChartOption` from here, never from 'echarts' itself.
 */
import type { BarSeriesOption } from 'echarts/charts';
import { GaugeChart, type GaugeSeriesOption, LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  DataZoomComponent,
  type DataZoomComponentOption,
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { getInstanceByDom, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

use([LineChart, GaugeChart, GridComponent, TooltipComponent, DataZoomComponent, LegendComponent, CanvasRenderer]);

/** An option object limited to the registered components (bars included: lib/chartsBar.ts), so an unregistered one is a type error. */
export type TChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | GaugeSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | DataZoomComponentOption
  | LegendComponentOption
>;

/**
 * The parts of echarts/core the console calls. Named imports rather than the module's namespace object: passing the
 * namespace around kept every export of echarts/core in the chart chunk (GeoJSON parsing, graphic helpers, …).
 */
export const echarts = { init, use, getInstanceByDom };
/** What {@link echarts} is, for code that takes the build as an argument (lib/useEChart.ts). */
export type TEChartsBuild = typeof echarts;
