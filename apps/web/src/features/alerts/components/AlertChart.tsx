/**
 * One statistics chart (alertCharts.ts build) drawn by the shared ECharts life cycle (lib/useEChart.ts).
 * `data-testid` and `data-total` (the alerts it draws) are for browser tests.
 */
import { useEChart } from '../../../lib/useEChart';
import { echarts, type TAlertChartOption } from '../alertCharts';

/** Props: the option, the number of alerts drawn, a test id, the height in px. */
export interface TAlertChartProps {
  option: TAlertChartOption;
  total: number;
  testId: string;
  height?: number;
}

/** The chart. */
export function AlertChart({ option, total, testId, height = 280 }: TAlertChartProps) {
  const el = useEChart(echarts, option);
  return <div ref={el} data-testid={testId} data-total={total} style={{ width: '100%', height }} />;
}
