/**
 * The one ECharts life cycle of the console: an instance created on mount in the returned element, resized with its
 * container, given `option` whenever it changes (notMerge: the new option replaces the old, so zoom resets with new
 * data; no animation when the viewer prefers reduced motion), disposed on unmount. Option changes are coalesced: at
 * most one `setOption` per animation frame, with the newest option, so a burst of live messages draws the chart once
 * (and a hidden tab, where frames stop, not at all until it shows again); made again in ECharts' dark theme
 * when the console turns dark (lib/colorScheme), and back. Which chart types exist is up to the caller's build (lib/charts.ts for device charts,
 * features/alerts/alertCharts.ts for statistics); both register into the same `echarts/core`.
 *
 * A chart whose data changes often while the rest stays (a live gauge) passes the data as `patch`: ECharts' own way to
 * update a chart (setOption merging the changed part into the option it holds), at most once per animation frame,
 * instead of rebuilding the whole chart from a new option.
 */
import type * as echarts from 'echarts/core';
import type { TEChartsBuild } from './charts';
import { type RefObject, useEffect, useRef } from 'react';
import { type TColorScheme, useColorScheme } from './colorScheme';
import { prefersReducedMotion } from './reducedMotion';

/** `option` as drawn: no animation when the viewer prefers reduced motion; transparent behind a dark chart. */
function themed(option: echarts.EChartsCoreOption, scheme: TColorScheme): echarts.EChartsCoreOption {
  return {
    ...(scheme === 'dark' ? { backgroundColor: 'transparent' } : {}),
    ...option,
    ...(prefersReducedMotion() ? { animation: false } : {}),
  };
}

/**
 * Draws `option` with `build` (the caller's echarts/core with its charts registered: passing it keeps that
 * registration imported) in the element the returned ref is attached to; `onInit` runs once with the new instance
 * (e.g. to listen for dataZoom). `patch`, when given, is merged into the drawn option (ECharts' merge of `setOption`,
 * series matched by index) after `option` and whenever it changes; a new `option` is drawn with the newest `patch`.
 */
export function useEChart(
  build: Pick<TEChartsBuild, 'init'>,
  option: echarts.EChartsCoreOption,
  onInit?: (chart: echarts.ECharts) => void,
  patch?: echarts.EChartsCoreOption,
): RefObject<HTMLDivElement | null> {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const init = useRef(onInit);

  const scheme = useColorScheme();
  const latest = useRef(option);
  latest.current = option;
  const latestPatch = useRef(patch);
  latestPatch.current = patch;
  // The option and patch drawn last, so a re-render with the same ones draws nothing; the frame a change waits for.
  const drawn = useRef<echarts.EChartsCoreOption | null>(null);
  const drawnPatch = useRef<echarts.EChartsCoreOption | undefined>(undefined);
  const frame = useRef<number | null>(null);

  useEffect(() => {
    if (!el.current) return;
    // ECharts' own dark theme, on a transparent background so the chart sits on its card's colour.
    const instance = build.init(el.current, scheme === 'dark' ? 'dark' : undefined);
    instance.setOption(themed(latest.current, scheme), { notMerge: true });
    if (latestPatch.current) instance.setOption(latestPatch.current);
    drawn.current = latest.current;
    drawnPatch.current = latestPatch.current;
    el.current.dataset.chartScheme = scheme; // for browser tests: which theme the chart was made in
    chart.current = instance;
    init.current?.(instance);
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el.current);
    return () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [build, scheme]);

  useEffect(() => {
    if ((option === drawn.current && patch === drawnPatch.current) || frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const instance = chart.current;
      if (!instance) return;
      if (latest.current !== drawn.current) {
        instance.setOption(themed(latest.current, scheme), { notMerge: true });
        if (latestPatch.current) instance.setOption(latestPatch.current);
      } else if (latestPatch.current && latestPatch.current !== drawnPatch.current) {
        instance.setOption(latestPatch.current);
      }
      drawn.current = latest.current;
      drawnPatch.current = latestPatch.current;
    });
  }, [option, patch, scheme]);

  return el;
}
