/** Platform-telemetry calls (spec §7 `/frontstage-pt/v1/platform-telemetry`) as TanStack Query hooks over the HTTP client. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  platformTelemetryPaths,
  type TFormulaPreview,
  type TFormulaPreviewInput,
  type TListQuery,
  type TPlatformTelemetry,
  type TPlatformTelemetryInput,
  type TPlatformTelemetryPage,
  type TPlatformTelemetrySeries,
} from '@tessera/contracts';
import { http } from '../../lib/http';
import { useLivePlatformTelemetry } from '../../lib/live';
import type { TRange } from '../devices/model/range';

/** The list's latest values are read again this often (ms) while a page shows them. */
export const LATEST_POLL_MS = 5_000;
/** One platform telemetry is followed live; it is read again this often only in case the live channel is down. */
const ITEM_POLL_MS = 30_000;

/** Query keys of platform telemetry. */
export const ptKeys = {
  all: ['platform-telemetry'] as const,
  list: (q: TListQuery) => ['platform-telemetry', 'list', q] as const,
  item: (id: number) => ['platform-telemetry', 'item', id] as const,
  series: (id: number, range: TRange) => ['platform-telemetry', 'series', id, ...range] as const,
  preview: (input: TFormulaPreviewInput) => ['platform-telemetry', 'preview', JSON.stringify(input)] as const,
};

/** GET list (read again every few seconds: the latest values move as devices publish); none while not `enabled`. */
export function usePlatformTelemetryList(q: TListQuery, enabled = true) {
  return useQuery({
    queryKey: ptKeys.list(q),
    queryFn: () => http.get<TPlatformTelemetryPage>(platformTelemetryPaths.list, q),
    placeholderData: keepPreviousData,
    refetchInterval: LATEST_POLL_MS,
    enabled,
  });
}

/**
 * GET {id}, kept current by its live topic (each new latest value written into the cached answer), and read again
 * every 30 s in case the live channel is down.
 */
export function usePlatformTelemetry(id: number | undefined) {
  const qc = useQueryClient();
  useLivePlatformTelemetry(id, (m) =>
    qc.setQueryData<TPlatformTelemetry>(ptKeys.item(m.id), (old) =>
      old && (old.latest_ts ?? 0) <= m.ts ? { ...old, latest_value: m.value, latest_ts: m.ts, latest_error: null } : old,
    ),
  );
  return useQuery({
    queryKey: ptKeys.item(id ?? 0),
    queryFn: () => http.get<TPlatformTelemetry>(platformTelemetryPaths.item(id ?? 0), undefined, { quiet: true }),
    enabled: id !== undefined,
    retry: (failures, err) => failures < 2 && ![403, 404].includes((err as { status?: number }).status ?? 0),
    refetchInterval: ITEM_POLL_MS,
  });
}

/** GET {id}/timeseries over `range`, bucketed for a chart ~600 points wide; read again every minute. */
export function usePlatformTelemetrySeries(id: number | undefined, range: TRange) {
  return useQuery({
    queryKey: ptKeys.series(id ?? 0, range),
    queryFn: () =>
      http.get<TPlatformTelemetrySeries>(platformTelemetryPaths.timeseries(id ?? 0), {
        startTs: range[0],
        endTs: range[1],
        fn: 'avg',
        width: 600,
      }),
    enabled: id !== undefined,
    refetchInterval: 60_000,
  });
}

/** POST preview of `input` (none while it is null: nothing to preview yet). */
export function useFormulaPreview(input: TFormulaPreviewInput | null) {
  return useQuery({
    queryKey: ptKeys.preview(input ?? { formula: '', coefficient: 1, devices: [] }),
    queryFn: () => http.post<TFormulaPreview>(platformTelemetryPaths.preview, input, { quiet: true }),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** POST (no id) or PUT {id}. */
export function useSavePlatformTelemetry() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: TPlatformTelemetryInput }) =>
      id === undefined
        ? http.post<TPlatformTelemetry>(platformTelemetryPaths.list, body, { quiet: true })
        : http.put<TPlatformTelemetry>(platformTelemetryPaths.item(id), body, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ptKeys.all }),
  });
}

/** DELETE {id}. */
export function useDeletePlatformTelemetry() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(platformTelemetryPaths.item(id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: ptKeys.all }),
  });
}
