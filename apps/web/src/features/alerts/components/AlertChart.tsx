/**
 * One statistics chart (alertCharts.ts build): created on mount, follows the container's size, replaced on option
 * change, disposed on unmount. `data-testid` and `data-total` (the alerts it draws) are for browser tests.
 */
import { useEffect, useRef } from 'react';
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
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const instance = echarts.init(el.current);
    chart.current = instance;
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

  return <div ref={el} data-testid={testId} data-total={total} style={{ width: '100%', height }} />;
}
