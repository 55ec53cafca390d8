/** Custom page calls (spec §7 "custom page: GET, PUT multipart htmlFile, DELETE") as TanStack Query hooks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CUSTOM_PAGE_FILE_FIELD,
  CUSTOM_PAGE_TITLE_FIELD,
  customPagePaths,
  paths,
  type TCustomPage,
  type TDeviceTwin,
} from '@tessera/contracts';
import { http } from '../../lib/http';
import { deviceKeys } from '../devices/api';

/** Query keys of the custom page tabs (the device tab reads the device's twin through `deviceKeys`). */
export const customPageKeys = {
  ofProject: (projectId: number) => ['custom-page', projectId] as const,
};

/**
 * GET projects/{id}/custom-page: the page with a fresh view URL, or null when the project has none (204). The URL
 * is valid for minutes, long enough to load the frame; it is fetched again when the frame is shown again.
 */
export function useCustomPage(projectId: number | undefined) {
  return useQuery({
    queryKey: customPageKeys.ofProject(projectId ?? 0),
    queryFn: async () => (await http.get<TCustomPage | undefined>(customPagePaths.page(projectId ?? 0))) ?? null,
    enabled: !!projectId && projectId > 0,
    staleTime: 60_000,
  });
}

/** PUT projects/{id}/custom-page: the title, and the HTML file when one is chosen (replaces the page's file). */
export function useSaveCustomPage(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ title, file }: { title: string; file?: Blob }) => {
      const form = new FormData();
      form.append(CUSTOM_PAGE_TITLE_FIELD, title);
      if (file) form.append(CUSTOM_PAGE_FILE_FIELD, file);
      return http.put<TCustomPage>(customPagePaths.page(projectId), form, { quiet: true });
    },
    onSuccess: (page) => qc.setQueryData(customPageKeys.ofProject(projectId), page),
  });
}

/** DELETE projects/{id}/custom-page. */
export function useDeleteCustomPage(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.del<void>(customPagePaths.page(projectId)),
    onSuccess: () => qc.setQueryData(customPageKeys.ofProject(projectId), null),
  });
}

/**
 * The device twin (latest values) feeding a page, under the device pages' own cache key so both share it; idle
 * without a device.
 */
export function usePageTwin(tangramId: string | undefined) {
  return useQuery({
    queryKey: deviceKeys.twin(tangramId ?? ''),
    queryFn: async () => (await http.get<TDeviceTwin[]>(paths.tsDeviceTwins, { tangramIds: tangramId })).at(0) ?? null,
    enabled: !!tangramId,
    staleTime: 30_000,
  });
}

/** True when the device detail shows the custom-page tab: the device's project has a page (spec §2). */
export function useHasCustomPage(projectId: number | undefined): boolean {
  return !!useCustomPage(projectId).data;
}
