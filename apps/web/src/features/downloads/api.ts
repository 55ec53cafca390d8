/** Download-centre calls (spec §7 `/frontstage-dc/v1` timeseries-records) as TanStack Query hooks over the HTTP client. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  downloadPaths,
  type TDownloadJob,
  type TDownloadJobCreate,
  type TDownloadJobPage,
  type TDownloadLink,
  type TListQuery,
} from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the download centre. */
export const downloadKeys = {
  all: ['downloads'] as const,
  list: (q: TListQuery) => ['downloads', 'list', q] as const,
};

/** While a listed job is packaging the list is read every second (its progress bar), else every 30 s. */
export const PACKAGING_POLL_MS = 1_000;
const IDLE_POLL_MS = 30_000;

/** GET timeseries-records: the caller's exports, newest first. */
export function useDownloadJobs(q: TListQuery) {
  return useQuery({
    queryKey: downloadKeys.list(q),
    queryFn: () => http.get<TDownloadJobPage>(downloadPaths.records, q),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some((j) => j.status === 'packaging') ? PACKAGING_POLL_MS : IDLE_POLL_MS),
  });
}

/** POST timeseries-records: a new export job (packaged in the background). */
export function useCreateDownloadJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TDownloadJobCreate) => http.post<TDownloadJob>(downloadPaths.records, body, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: downloadKeys.all }),
  });
}

/** POST timeseries-records/{id}/cancel, or DELETE timeseries-records/{id}. */
export function useJobAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: number; action: 'cancel' | 'delete' }): Promise<void> => {
      if (action === 'cancel') await http.post<TDownloadJob>(downloadPaths.cancel(id), undefined, { quiet: true });
      else await http.del<void>(downloadPaths.record(id), { quiet: true });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: downloadKeys.all }),
  });
}

/**
 * Saves a packaged file: asks for a one-minute link and lets the browser download it to disk itself (a large export
 * never passes through the page's memory).
 */
export async function saveJobFile(id: number): Promise<void> {
  const link = await http.post<TDownloadLink>(downloadPaths.link(id), undefined, { quiet: true });
  const a = document.createElement('a');
  a.href = link.url;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
