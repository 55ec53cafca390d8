/**
 * Data layer of the device pages: TanStack Query hooks over the HTTP client (spec §7 devices and
 * `/frontstage-ts/v1` endpoints). Components never call the client directly.
 */
import {
  MAX_PAGE_LIMIT,
  paths,
  type TDevice,
  type TDeviceDetail,
  type TDeviceListQuery,
  type TDeviceTwin,
  type TPage,
  type TProject,
  type TRawTimeseriesQuery,
  type TTelemetryRow,
  type TTimeseriesQuery,
  type TTelemetryMetadata,
  type TTimeseriesResponse,
} from '@tessera/contracts';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';

/** Query keys of the device pages; the live channel writes into `twin(tangramId)` and `detail(tangramId)`. */
export const deviceKeys = {
  all: ['devices'] as const,
  lists: ['devices', 'list'] as const,
  list: (q: Partial<TDeviceListQuery>) => ['devices', 'list', q] as const,
  detail: (tangramId: string) => ['devices', 'detail', tangramId] as const,
  twin: (tangramId: string) => ['devices', 'twin', tangramId] as const,
  allTimeseries: ['devices', 'timeseries'] as const,
  timeseries: (q: TTimeseriesQuery) => ['devices', 'timeseries', q] as const,
  rawValues: (q: TRawTimeseriesQuery) => ['devices', 'timeseries', 'raw', q] as const,
  projectOptions: (isVendor: boolean) => ['devices', 'project-options', isVendor] as const,
  metadata: (tangramId: string) => ['devices', 'metadata', tangramId] as const,
};

/** A page of the devices the caller may see (the server filters by tenant and authorisation). */
export function useDevices(q: Partial<TDeviceListQuery>) {
  return useQuery({
    queryKey: deviceKeys.list(q),
    queryFn: () => http.get<TPage<TDevice>>(paths.devices, q),
    placeholderData: keepPreviousData,
  });
}

/** Project filter options `{ id, name }`: a vendor's projects; for a user (no project API), the projects of their devices. */
export function useProjectOptions(isVendor: boolean) {
  return useQuery({
    queryKey: deviceKeys.projectOptions(isVendor),
    queryFn: async () => {
      if (isVendor) {
        const page = await http.get<TPage<TProject>>(paths.projects, { limit: MAX_PAGE_LIMIT });
        return page.data.map((p) => ({ id: p.id, name: p.name }));
      }
      const page = await http.get<TPage<TDevice>>(paths.devices, { limit: MAX_PAGE_LIMIT });
      const byId = new Map(page.data.map((d) => [d.project_id, d.project_name]));
      return [...byId].map(([id, name]) => ({ id, name }));
    },
    staleTime: 60_000,
  });
}

/** The device with its project's status groups and sensors. */
export function useDeviceDetail(tangramId: string) {
  return useQuery({
    queryKey: deviceKeys.detail(tangramId),
    queryFn: () => http.get<TDeviceDetail>(paths.deviceV2(tangramId)),
  });
}

/** The device twin (latest values and decoded status); null when the server has nothing for it yet. */
export function useDeviceTwin(tangramId: string) {
  return useQuery({
    queryKey: deviceKeys.twin(tangramId),
    queryFn: async () => (await http.get<TDeviceTwin[]>(paths.tsDeviceTwins, { tangramIds: tangramId }))[0] ?? null,
    // The live channel keeps it current while a detail page is open; a refetch would only race with live points.
    staleTime: 30_000,
    refetchOnWindowFocus: false,
  });
}

/** Bucketed history of one key; disabled until `q` is given. */
export function useTimeseries(q: TTimeseriesQuery | null) {
  return useQuery({
    queryKey: q ? deviceKeys.timeseries(q) : ['devices', 'timeseries', null],
    queryFn: () => http.get<TTimeseriesResponse>(paths.tsTimeseriesV2, { ...(q as TTimeseriesQuery) }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
}

/** Raw points of one key (a non-numeric key's history: docs/decisions/telemetry.md); disabled until `q` is given. */
export function useRawValues(q: TRawTimeseriesQuery | null) {
  return useQuery({
    queryKey: q ? deviceKeys.rawValues(q) : ['devices', 'timeseries', 'raw', null],
    queryFn: () => http.get<TTelemetryRow[]>(paths.tsRawValues, { ...(q as TRawTimeseriesQuery) }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
}

/** A telemetry key some of the chosen devices have: its name and unit (from the first device that defines it). */
export interface TKeyOption {
  key: string;
  name: string;
  unit: string;
}

/** The telemetry keys (sensor metadata) of the devices `tangramIds`, united, in the order first seen. */
export function useDeviceKeys(tangramIds: readonly string[]) {
  return useQueries({
    queries: tangramIds.map((tangramId) => ({
      queryKey: deviceKeys.metadata(tangramId),
      queryFn: () => http.get<TTelemetryMetadata>(paths.tsMetadata, { tangramId }),
      staleTime: 60_000,
    })),
    combine: (results) => {
      const keys = new Map<string, TKeyOption>();
      for (const r of results)
        for (const m of r.data ?? []) if (!keys.has(m.key)) keys.set(m.key, { key: m.key, name: m.name, unit: m.unit });
      return { keys: [...keys.values()], loading: results.some((r) => r.isLoading) };
    },
  });
}
