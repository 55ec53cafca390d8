/**
 * A small React wrapper around an ECharts instance (lib/charts.ts build): creates it on mount, follows the
 * container's size, replaces the option on change, reports dataZoom windows, disposes on unmount.
 * The container carries `data-testid` and `data-points` (how many values are drawn) for browser tests.
 */
import { useEffect, useRef } from 'react';
import { echarts, type TChart, type TChartOption } from '../../../lib/charts';

/** Props: the option to draw, the count of drawn values, and an optional zoom callback (percent 0–100). */
export interface TEChartProps {
  option: TChartOption;
  points: number;
  testId: string;
  height?: number;
  onZoom?: (startPct: number, endPct: number) => void;
}

/** One chart; `option` replaces the previous one entirely (notMerge), so the zoom resets with new data. */
export function EChart({ option, points, testId, height = 360, onZoom }: TEChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<TChart | null>(null);
  const zoomRef = useRef(onZoom);
  useEffect(() => {
    zoomRef.current = onZoom;
  });

  useEffect(() => {
    if (!el.current) return;
    const instance = echarts.init(el.current);
    chart.current = instance;
    instance.on('datazoom', () => {
      const dz = (instance.getOption() as { dataZoom?: { start?: number; end?: number }[] }).dataZoom?.[0];
      if (dz) zoomRef.current?.(dz.start ?? 0, dz.end ?? 100);
    });
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={el} data-testid={testId} data-points={points} style={{ width: '100%', height }} />;
}
