/** Dashboard calls (spec §7 `/dashboard/v1`) as TanStack Query hooks over the console's HTTP client. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  dashboardPaths,
  type TDashboardPage,
  type TDashboardPageList,
  type TDashboardState,
  type TWidgetListInput,
} from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the dashboard. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  pages: ['dashboard', 'pages'] as const,
  widgets: (pageId: number) => ['dashboard', 'widgets', pageId] as const,
  series: (tangramId: string, key: string, fn: string, from: number, to: number) =>
    ['dashboard', 'series', tangramId, key, fn, from, to] as const,
  devices: (tangramIds: readonly string[]) => ['dashboard', 'devices', tangramIds] as const,
  twins: (tangramIds: readonly string[]) => ['dashboard', 'device-twins', tangramIds] as const,
};

/** GET pages: the viewer's pages in order. */
export function useDashboardPages() {
  return useQuery({ queryKey: dashboardKeys.pages, queryFn: () => http.get<TDashboardPageList>(dashboardPaths.pages) });
}

/** GET pages/{id}/widgets; disabled without a page. */
export function useDashboardWidgets(pageId: number | null) {
  return useQuery({
    queryKey: dashboardKeys.widgets(pageId ?? 0),
    queryFn: () => http.get<TDashboardState>(dashboardPaths.widgets(pageId ?? 0)),
    enabled: pageId !== null,
  });
}

/** Page changes: create, rename, delete, reorder; each refreshes the page list. */
export function usePageMutations() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: dashboardKeys.pages });
  return {
    create: useMutation({
      mutationFn: (name: string) => http.post<TDashboardPage>(dashboardPaths.pages, { name }, { quiet: true }),
      onSuccess: done,
    }),
    rename: useMutation({
      mutationFn: ({ id, name }: { id: number; name: string }) =>
        http.put<TDashboardPage>(dashboardPaths.page(id), { name }, { quiet: true }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: number) => http.del<void>(dashboardPaths.page(id), { quiet: true }),
      onSuccess: done,
    }),
    order: useMutation({
      mutationFn: (ids: number[]) => http.put<TDashboardPageList>(dashboardPaths.pageOrder, { ids }, { quiet: true }),
      onSuccess: done,
    }),
  };
}

/** PUT pages/{id}/widgets: saves the whole widget list; the answer becomes the cached state. */
export function useSaveWidgets(pageId: number | null) {
  const qc = useQueryClient();
  const key = dashboardKeys.widgets(pageId ?? 0);
  return useMutation({
    mutationFn: (body: TWidgetListInput) => http.put<TDashboardState>(dashboardPaths.widgets(pageId ?? 0), body, { quiet: true }),
    // A read of the page's widgets still under way may have been answered before this save: it must not land after the
    // save and put the page back as it was (TanStack Query's optimistic-update pattern).
    onMutate: () => qc.cancelQueries({ queryKey: key }),
    onSuccess: async (state) => {
      await qc.cancelQueries({ queryKey: key });
      qc.setQueryData(key, state);
      void qc.invalidateQueries({ queryKey: dashboardKeys.pages });
    },
  });
}
