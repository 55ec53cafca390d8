/**
 * The statistics page's ECharts build: echarts/core (lib/charts.ts) plus only the bar and pie charts, registered in
 * this lazy chunk, so the device pages never load them.
 */
import { BarChart, type BarSeriesOption, PieChart, type PieSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { echarts } from '../../lib/charts';

echarts.use([BarChart, PieChart]);

/** An option limited to what is registered. */
export type TAlertChartOption = ComposeOption<
  BarSeriesOption | PieSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption
>;

export { echarts };
