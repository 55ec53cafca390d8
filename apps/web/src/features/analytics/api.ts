/** Analytics calls (spec §7 `/frontstage-ts/v1` timeseries and statistics) as TanStack Query hooks over the HTTP client. */
import { useQueries, useQuery } from '@tanstack/react-query';
import {
  paths,
  platformTelemetryPaths,
  type TActivationRate,
  type TAggFn,
  type TPlatformTelemetrySeries,
  type TPlatformTelemetryStatistics,
  type TStatisticsSummary,
  type TTimeseriesResponse,
} from '@tessera/contracts';
import { http } from '../../lib/http';
import type { TRange } from '../devices/model/range';
import type { TComparedSeries, TSeriesAnswer } from './model/compare';

/** The charts' width in buckets (the server answers at most about twice as many). */
export const COMPARE_CHART_WIDTH = 600;

/** Query keys of analytics. */
export const analyticsKeys = {
  series: (tangramId: string, key: string, fn: TAggFn, range: TRange) => ['analytics', 'series', tangramId, key, fn, ...range] as const,
  summary: (tangramIds: readonly string[], keys: readonly string[], range: TRange) =>
    ['analytics', 'summary', tangramIds.join(','), keys.join(','), ...range] as const,
  activation: (range: TRange, offsetMin: number) => ['analytics', 'activation', ...range, offsetMin] as const,
  platformSeries: (id: number, fn: TAggFn, range: TRange) => ['analytics', 'pt-series', id, fn, ...range] as const,
  platformStatistics: (id: number, range: TRange) => ['analytics', 'pt-statistics', id, ...range] as const,
};

/** Each answer, and whether any is still loading or failed; stable while no query changed. */
const combineSeries = (results: { data?: TSeriesAnswer; isLoading: boolean; isError: boolean }[]) => ({
  answers: results.map((r) => r.data),
  loading: results.some((r) => r.isLoading),
  failed: results.some((r) => r.isError),
});

/** The buckets of every compared series (one request each, in parallel): v2/timeseries, or a platform telemetry's series. */
export function useComparedSeries(series: readonly TComparedSeries[], fn: TAggFn, range: TRange) {
  return useQueries({
    queries: series.map((s) => ({
      queryKey:
        s.platformTelemetryId !== undefined
          ? analyticsKeys.platformSeries(s.platformTelemetryId, fn, range)
          : analyticsKeys.series(s.tangramId, s.key, fn, range),
      queryFn: (): Promise<TSeriesAnswer> =>
        s.platformTelemetryId !== undefined
          ? http.get<TPlatformTelemetrySeries>(platformTelemetryPaths.timeseries(s.platformTelemetryId), {
              startTs: range[0],
              endTs: range[1],
              fn,
              width: COMPARE_CHART_WIDTH,
            })
          : http.get<TTimeseriesResponse>(paths.tsTimeseriesV2, {
              tangramId: s.tangramId,
              key: s.key,
              startTs: range[0],
              endTs: range[1],
              fn,
              diff: false,
              width: COMPARE_CHART_WIDTH,
            }),
      staleTime: 60_000,
    })),
    combine: combineSeries,
  });
}

/** GET statistics of each chosen platform telemetry over `range`, by series id (`pt/id`). */
export function usePlatformStatistics(ids: readonly number[], range: TRange) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: analyticsKeys.platformStatistics(id, range),
      queryFn: () => http.get<TPlatformTelemetryStatistics>(platformTelemetryPaths.statistics(id), { startTs: range[0], endTs: range[1] }),
      staleTime: 60_000,
    })),
    combine: (results) => ({
      byId: new Map(results.flatMap((r) => (r.data ? [[`pt/${r.data.id}`, r.data] as const] : []))),
      loading: results.some((r) => r.isFetching),
    }),
  });
}

/** GET statistics/summary of the compared devices × keys (none while nothing is chosen). */
export function useStatisticsSummary(tangramIds: readonly string[], keys: readonly string[], range: TRange) {
  return useQuery({
    queryKey: analyticsKeys.summary(tangramIds, keys, range),
    queryFn: () =>
      http.get<TStatisticsSummary>(paths.tsStatisticsSummary, {
        tangramIds: tangramIds.join(','),
        keys: keys.join(','),
        startTs: range[0],
        endTs: range[1],
      }),
    enabled: tangramIds.length > 0 && keys.length > 0,
    staleTime: 60_000,
  });
}

/** GET statistics/activation-rate over `range`, days from the browser's midnight (vendors only: `enabled`). */
export function useActivationRate(range: TRange, enabled: boolean) {
  const offsetMin = -new Date(range[1]).getTimezoneOffset();
  return useQuery({
    queryKey: analyticsKeys.activation(range, offsetMin),
    queryFn: () => http.get<TActivationRate>(paths.tsActivationRate, { startTs: range[0], endTs: range[1], utc_offset_min: offsetMin }),
    enabled,
    staleTime: 60_000,
  });
}
