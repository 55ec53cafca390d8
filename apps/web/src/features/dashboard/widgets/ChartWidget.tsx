/**
 * Line and bar widgets: several devices × keys over the widget's range, bucketed by the chosen function like the
 * history chart (v2 timeseries per series), read again every 5, 10 or 30 minutes; zooming a line re-queries the
 * zoomed range with finer buckets. The legend names each series by its device's and sensor's names. A series whose device the viewer may no longer see is named under the chart.
 */
import { useQueries } from '@tanstack/react-query';
import { paths, type TDeviceDetail, type TTimeseriesResponse, type TWidgetParameter } from '@tessera/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TChartOption } from '../../../lib/charts';
import { http } from '../../../lib/http';
import { dashboardKeys } from '../api';
import { deviceKeys } from '../../devices/api';
import { EChart } from '../../devices/components/EChart';
import { formatValues } from '../../devices/model/format';
import { type TRange, zoomedRange } from '../../devices/model/range';
import { Text } from '../../../components/Text';

const WIDTH = 300;

/** Each series' answer and HTTP status; stable while no query changed (TanStack memoizes a stable `combine`). */
const combineSeries = (results: { data?: TTimeseriesResponse; error: unknown }[]) => ({
  loaded: results.map((r) => r.data),
  statuses: results.map((r) => (r.error as { status?: number } | null)?.status),
});
const ZOOM_DEBOUNCE_MS = 400;

/**
 * The legend names of `series` (see {@link seriesName}), from the device cache the other widgets share (GET device
 * v2), as a JSON array. A string, so the chart's option stays the same object while a device's details change in ways
 * the names do not show: the live channel marks a device online and seen on every message it sends.
 */
function useSeriesNames(series: readonly { tangram_id: string; key: string }[]): string {
  const unique = [...new Set(series.map((s) => s.tangram_id))];
  return useQueries({
    queries: unique.map((id) => ({
      queryKey: deviceKeys.detail(id),
      queryFn: () => http.get<TDeviceDetail>(paths.deviceV2(id), undefined, { quiet: true }),
      staleTime: 60_000,
    })),
    combine: (results) => {
      const details = new Map(results.flatMap((r) => (r.data ? [[r.data.tangram_id, r.data] as const] : [])));
      return JSON.stringify(series.map((s) => seriesName(s, details.get(s.tangram_id))));
    },
  });
}

/** A series' legend name: the device's name and the key's sensor name; the id's end and the key until they load. */
export function seriesName(s: { tangram_id: string; key: string }, device: TDeviceDetail | undefined): string {
  if (!device) return `${s.tangram_id.slice(-6)} ${s.key}`;
  const sensor = device.sensors.find((x) => x.key === s.key)?.name || s.key;
  return `${device.name} ${sensor}`;
}

/** The widget body: `kind` line or bar. */
export function ChartWidget({ p, kind, height }: { p: TWidgetParameter<'line'>; kind: 'line' | 'bar'; height: number }) {
  const { t, i18n } = useTranslation();
  // The range ends when the widget last refreshed (mounted, or the refresh timer fired); zooming narrows it until the
  // next refresh. Set once on mount, not again by the effect: a second `Date.now()` would be a second series query.
  const [refreshedAt, setRefreshedAt] = useState(() => Date.now());
  const range = useMemo<TRange>(() => [refreshedAt - p.range_ms, refreshedAt], [refreshedAt, p.range_ms]);
  const [view, setView] = useState<TRange | null>(null);
  const zoomTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    const timer = setInterval(() => {
      setRefreshedAt(Date.now());
      setView(null);
    }, p.refresh_min * 60_000);
    return () => {
      clearInterval(timer);
      clearTimeout(zoomTimer.current);
    };
  }, [p.refresh_min]);
  const shown = view ?? range;
  const { loaded, statuses } = useQueries({
    queries: p.series.map((s) => ({
      queryKey: dashboardKeys.series(s.tangram_id, s.key, p.fn, shown[0], shown[1]),
      queryFn: () =>
        http.get<TTimeseriesResponse>(
          paths.tsTimeseriesV2,
          {
            tangramId: s.tangram_id,
            key: s.key,
            startTs: Math.round(shown[0]),
            endTs: Math.round(shown[1]),
            fn: p.fn,
            diff: false,
            width: WIDTH,
          },
          { quiet: true },
        ),
      staleTime: 60_000,
    })),
    combine: combineSeries,
  });
  const namesJson = useSeriesNames(p.series);
  const names = useMemo(() => JSON.parse(namesJson) as string[], [namesJson]);
  const gone = p.series.filter((_, i) => {
    const status = statuses[i];
    return status === 404 || status === 403;
  });
  const option = useMemo<TChartOption>(() => {
    const series = p.series.map((_, i) => {
      const data = (loaded[i]?.points ?? []).map((pt) => [pt.ts, pt.vs[0] ?? null] as [number, number | null]);
      const name = names[i];
      return kind === 'line'
        ? { type: 'line' as const, name, data, showSymbol: data.length < 60, connectNulls: false }
        : { type: 'bar' as const, name, data };
    });
    return {
      animation: false,
      grid: { left: 48, right: 16, top: 28, bottom: kind === 'line' ? 48 : 24 },
      tooltip: { trigger: 'axis', valueFormatter: (v) => formatValues([typeof v === 'number' ? v : null], i18n.language) },
      legend: { show: p.series.length > 1, top: 0, type: 'scroll' },
      xAxis: { type: 'time', min: shown[0], max: shown[1] },
      yAxis: { type: 'value', scale: kind === 'line' },
      dataZoom: kind === 'line' ? [{ type: 'inside' }, { type: 'slider', height: 16, bottom: 4 }] : [],
      series,
    };
  }, [loaded, p.series, kind, shown, i18n.language, names]);
  const drawn = loaded.reduce((n, d) => n + (d?.points.length ?? 0), 0);
  const onZoom = (startPct: number, endPct: number) => {
    clearTimeout(zoomTimer.current);
    zoomTimer.current = setTimeout(() => {
      const next = zoomedRange(shown, startPct, endPct);
      if (next) setView(next);
    }, ZOOM_DEBOUNCE_MS);
  };
  return (
    <div data-legend={names.join('|')}>
      <EChart
        option={option}
        points={drawn}
        testId={`widget-${kind}-chart`}
        height={height - (gone.length ? 22 : 0)}
        onZoom={kind === 'line' ? onZoom : undefined}
      />
      {gone.length > 0 && (
        <Text type="warning" testId="widget-device-gone">
          {t('dashboard.seriesGone', { ids: gone.map((s) => s.tangram_id.slice(-12)).join(', ') })}
        </Text>
      )}
    </div>
  );
}
