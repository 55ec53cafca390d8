/**
 * The one ECharts life cycle of the console: an instance created on mount in the returned element, resized with its
 * container, given `option` whenever it changes (notMerge: the new option replaces the old, so zoom resets with new
 * data; no animation when the viewer prefers reduced motion), disposed on unmount. Which chart types exist is up to the caller's build (lib/charts.ts for device charts,
 * features/alerts/alertCharts.ts for statistics); both register into the same `echarts/core`.
 */
import type * as echarts from 'echarts/core';
import { type RefObject, useEffect, useRef } from 'react';
import { prefersReducedMotion } from './reducedMotion';

/**
 * Draws `option` with `build` (the caller's echarts/core with its charts registered: passing it keeps that
 * registration imported) in the element the returned ref is attached to; `onInit` runs once with the new instance
 * (e.g. to listen for dataZoom).
 */
export function useEChart(
  build: typeof echarts,
  option: echarts.EChartsCoreOption,
  onInit?: (chart: echarts.ECharts) => void,
): RefObject<HTMLDivElement | null> {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const init = useRef(onInit);

  useEffect(() => {
    if (!el.current) return;
    const instance = build.init(el.current);
    chart.current = instance;
    init.current?.(instance);
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [build]);

  useEffect(() => {
    chart.current?.setOption(prefersReducedMotion() ? { ...option, animation: false } : option, { notMerge: true });
  }, [option]);

  return el;
}
