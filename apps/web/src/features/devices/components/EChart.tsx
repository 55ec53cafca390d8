/**
 * A device chart (lib/charts.ts build) on the shared ECharts life cycle (lib/useEChart.ts), reporting dataZoom
 * windows.
 * The container carries `data-testid` and `data-points` (how many values are drawn) for browser tests.
 */
import { useEffect, useRef } from 'react';
import { echarts, type TChartOption } from '../../../lib/charts';
import { useEChart } from '../../../lib/useEChart';

/**
 * Props: the option to draw, the count of drawn values, an optional zoom callback (percent 0–100), and an optional
 * patch merged into the option (lib/useEChart: a live value without rebuilding the chart).
 */
export interface TEChartProps {
  option: TChartOption;
  patch?: TChartOption;
  points: number;
  testId: string;
  height?: number;
  onZoom?: (startPct: number, endPct: number) => void;
}

/** One chart; `option` replaces the previous one entirely (notMerge), so the zoom resets with new data. */
export function EChart({ option, patch, points, testId, height = 360, onZoom }: TEChartProps) {
  const zoomRef = useRef(onZoom);
  useEffect(() => {
    zoomRef.current = onZoom;
  });
  const el = useEChart(
    echarts,
    option,
    (instance) =>
      instance.on('datazoom', () => {
        const dz = (instance.getOption() as { dataZoom?: { start?: number; end?: number }[] }).dataZoom?.[0];
        if (dz) zoomRef.current?.(dz.start ?? 0, dz.end ?? 100);
      }),
    patch,
  );
  return <div ref={el} data-testid={testId} data-points={points} style={{ width: '100%', height }} />;
}
