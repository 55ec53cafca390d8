/** A runs-per-minute sparkline for the rule list (ECharts line, no axes), with its figures as the accessible label. */
import { useMemo } from 'react';
import { echarts, type TChartOption } from '../../../lib/charts';
import { useEChart } from '../../../lib/useEChart';

/** Draws `values` (oldest first) in a 120 × 28 box. */
export function Sparkline({ values, label }: { values: readonly number[]; label: string }) {
  const option = useMemo<TChartOption>(
    () => ({
      animation: false,
      grid: { left: 1, right: 1, top: 2, bottom: 2 },
      xAxis: { type: 'category', show: false, data: values.map((_, i) => i) },
      yAxis: { type: 'value', show: false, min: 0 },
      series: [{ type: 'line', data: [...values], symbol: 'none', lineStyle: { width: 1.5 }, areaStyle: { opacity: 0.15 } }],
    }),
    [values],
  );
  const ref = useEChart(echarts, option);
  return <div ref={ref} role="img" aria-label={label} title={label} style={{ width: 120, height: 28 }} data-testid="rule-sparkline" />;
}
