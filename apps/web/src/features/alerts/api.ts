/**
 * Data layer of the alert pages (spec §7 `/frontstage-alert/v1`): TanStack Query hooks over the HTTP client.
 * The dashboard's list lives in the query cache; the live channel and the actions merge alerts into it.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  alertPaths,
  type TAlert,
  type TAlertDashboard,
  type TAlertDetail,
  type TAlertDetailQuery,
  type TAlertFilterQuery,
  type TAlertList,
  type TAlertListQuery,
  type TAlertOptions,
  type TAlertRangeQuery,
  type TAlertStatistics,
  type TAlertStatisticsQuery,
} from '@tessera/contracts';
import { http } from '../../lib/http';
import { mergeAlert } from './model/merge';

/** Query keys of the alert pages. */
export const alertKeys = {
  all: ['alerts'] as const,
  dashboard: ['alerts', 'dashboard'] as const,
  list: (q: Partial<TAlertListQuery>) => ['alerts', 'list', q] as const,
  options: (kind: 'projects' | 'products', q: TAlertRangeQuery) => ['alerts', 'options', kind, q] as const,
  statistics: (q: Partial<TAlertStatisticsQuery>) => ['alerts', 'statistics', q] as const,
  detail: (q: Partial<TAlertDetailQuery>) => ['alerts', 'statistics-detail', q] as const,
};

/** GET dashboard/alerts: the latest alerts, newest first. */
export function useDashboardAlerts() {
  return useQuery({ queryKey: alertKeys.dashboard, queryFn: () => http.get<TAlertDashboard>(alertPaths.dashboard) });
}

/**
 * Merges one alert (from the live channel or an action) into the cached dashboard list; answers whether it was a
 * new open alert that entered the list (the dashboard chimes for those).
 */
export function useMergeIntoDashboard() {
  const qc = useQueryClient();
  return (alert: TAlert): boolean => {
    let isNew = false;
    qc.setQueryData<TAlertDashboard>(alertKeys.dashboard, (old) => {
      if (!old) return old;
      const merged = mergeAlert(old.data, alert);
      isNew = merged.isNew;
      return { data: merged.list };
    });
    return isNew;
  };
}

/** GET alerts: a page of the history. Disabled while `enabled` is false (an out-of-bounds range). */
export function useAlertList(q: Partial<TAlertListQuery>, enabled = true) {
  return useQuery({
    queryKey: alertKeys.list(q),
    queryFn: () => http.get<TAlertList>(alertPaths.alerts, q),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET projects | products: filter options with alert counts in the range. */
export function useAlertOptions(kind: 'projects' | 'products', q: TAlertRangeQuery, enabled = true) {
  return useQuery({
    queryKey: alertKeys.options(kind, q),
    queryFn: () => http.get<TAlertOptions>(alertPaths[kind], q),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET statistics. */
export function useAlertStatistics(q: Partial<TAlertStatisticsQuery>, enabled = true) {
  return useQuery({
    queryKey: alertKeys.statistics(q),
    queryFn: () => http.get<TAlertStatistics>(alertPaths.statistics, q),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET statistics/detail: a page of per device and rule rows. */
export function useAlertDetail(q: Partial<TAlertDetailQuery>, enabled = true) {
  return useQuery({
    queryKey: alertKeys.detail(q),
    queryFn: () => http.get<TAlertDetail>(alertPaths.statisticsDetail, q),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * POST alerts/{id}/acknowledge or resolve. The answer is merged into the dashboard and every other alert query is
 * refreshed (history pages, statistics). Errors are the caller's to show (409 codes, see AlertActions).
 */
export function useAlertAction() {
  const qc = useQueryClient();
  const merge = useMergeIntoDashboard();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'acknowledge' | 'resolve' }) => http.post<TAlert>(alertPaths[action](id), undefined),
    onSuccess: (alert) => {
      merge(alert);
      return qc.invalidateQueries({ queryKey: alertKeys.all, predicate: (q) => q.queryKey[1] !== 'dashboard' });
    },
    onError: () => qc.invalidateQueries({ queryKey: alertKeys.all }),
  });
}

/** GET alerts/download: saves the CSV of the filtered history (with the bearer token, through the HTTP client). */
export function downloadAlertsCsv(q: TAlertFilterQuery): Promise<Blob> {
  return http.download(alertPaths.download, q);
}
