/**
 * The console's ECharts build: echarts/core with only what the console draws (line, bar and gauge series, grid,
 * tooltip, dataZoom, legend, mark areas, canvas), so the chart chunk stays small. Import `echarts` and `TChartOption` from here,
 * never from 'echarts' itself.
 */
import { BarChart, type BarSeriesOption, GaugeChart, type GaugeSeriesOption, LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  DataZoomComponent,
  type DataZoomComponentOption,
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  MarkAreaComponent,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([
  LineChart,
  BarChart,
  GaugeChart,
  GridComponent,
  TooltipComponent,
  DataZoomComponent,
  LegendComponent,
  MarkAreaComponent,
  CanvasRenderer,
]);

/** An option object limited to the registered components, so an unregistered one is a type error. */
export type TChartOption = echarts.ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | GaugeSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | DataZoomComponentOption
  | LegendComponentOption
>;

export { echarts };
