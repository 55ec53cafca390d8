/**
 * Machine calls (spec §7 User API `machine-configure`, `machine-instance`) as TanStack Query hooks, plus what the
 * machine pages read from other features: a product's telemetry keys (its projects' sensors, as the configure tab
 * lists them) and the active alerts of a machine's devices (the alerts list, one device and state at a time).
 */
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  alertPaths,
  MAX_PAGE_LIMIT,
  machinePaths,
  paths,
  sensorPaths,
  type TAlert,
  type TAlertList,
  type TAlertListQuery,
  type TListQuery,
  type TMachineConfigure,
  type TMachineConfigureCreateInput,
  type TMachineConfigureList,
  type TMachineConfigureUpdateInput,
  type TMachineInstance,
  type TMachineInstanceCreateInput,
  type TMachineInstanceList,
  type TMachineInstanceListQuery,
  type TMachineInstanceUpdateInput,
  type TPage,
  type TProject,
  type TSensorList,
} from '@tessera/contracts';
import { http } from '../../lib/http';
import { alertKeys } from '../alerts/api';
import { projectKeys } from '../projects/api';
import { sensorKeys } from '../sensors/api';

/** Query keys of the machine pages; every write invalidates `all`. */
export const machineKeys = {
  all: ['machines'] as const,
  configurePage: (q: TListQuery) => ['machines', 'configures', q] as const,
  configure: (id: number) => ['machines', 'configure', id] as const,
  instancePage: (q: Partial<TMachineInstanceListQuery>) => ['machines', 'instances', q] as const,
  instance: (id: number) => ['machines', 'instance', id] as const,
};

/** GET machine-configure: a page of the tenant's configures (vendors). */
export function useMachineConfigures(query: TListQuery, enabled = true) {
  return useQuery({
    queryKey: machineKeys.configurePage(query),
    queryFn: () => http.get<TMachineConfigureList>(machinePaths.configures, query),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET machine-configure/{id} (vendors); disabled for id 0. */
export function useMachineConfigure(id: number) {
  return useQuery({
    queryKey: machineKeys.configure(id),
    queryFn: () => http.get<TMachineConfigure>(machinePaths.configure(id)),
    enabled: id > 0,
  });
}

/**
 * POST machine-configure (no `id`) or PUT machine-configure/{id}. Quiet: the form shows every refusal itself (a 403
 * PLAN_LIMIT included).
 */
export function useSaveMachineConfigure() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: TMachineConfigureCreateInput | TMachineConfigureUpdateInput }) =>
      id === undefined
        ? http.post<TMachineConfigure>(machinePaths.configures, body, { quiet: true })
        : http.put<TMachineConfigure>(machinePaths.configure(id), body, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: machineKeys.all }),
  });
}

/** DELETE machine-configure/{id} (409 IN_USE while machines of it exist; the page explains). */
export function useDeleteMachineConfigure() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(machinePaths.configure(id), { quiet: true }),
    onSettled: () => qc.invalidateQueries({ queryKey: machineKeys.all }),
  });
}

/** GET machine-instance: a page of the machines the caller sees. */
export function useMachineInstances(query: Partial<TMachineInstanceListQuery>, enabled = true) {
  return useQuery({
    queryKey: machineKeys.instancePage(query),
    queryFn: () => http.get<TMachineInstanceList>(machinePaths.instances, query),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET machine-instance/{id}; a 404 means the caller may not see it (the page says so). */
export function useMachineInstance(id: number) {
  return useQuery({
    queryKey: machineKeys.instance(id),
    queryFn: () => http.get<TMachineInstance>(machinePaths.instance(id), undefined, { quiet: true }),
    enabled: id > 0,
    retry: false,
  });
}

/** POST machine-instance (no `id`) or PUT machine-instance/{id}; quiet, the form shows refusals on their fields. */
export function useSaveMachineInstance() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: TMachineInstanceCreateInput | TMachineInstanceUpdateInput }) =>
      id === undefined
        ? http.post<TMachineInstance>(machinePaths.instances, body, { quiet: true })
        : http.put<TMachineInstance>(machinePaths.instance(id), body, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: machineKeys.all }),
  });
}

/** DELETE machine-instance/{id}. */
export function useDeleteMachineInstance() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(machinePaths.instance(id), { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: machineKeys.all }),
  });
}

/** A telemetry key a product's devices report: key, sensor name and unit (from the first project naming it). */
export interface TProductKey {
  key: string;
  name: string;
  unit: string;
}

/**
 * The telemetry keys of product `productId` (vendors): the sensors of every project built on it (at most
 * MAX_PAGE_LIMIT projects), each key once, in project then configuration order. Shares the sensors tab's cache.
 */
export function useProductKeys(productId: number | undefined) {
  const projects = useQuery({
    queryKey: projectKeys.list({ page: 1, limit: MAX_PAGE_LIMIT }),
    queryFn: () => http.get<TPage<TProject>>(paths.projects, { page: 1, limit: MAX_PAGE_LIMIT }),
    enabled: productId !== undefined,
  });
  const ofProduct = (projects.data?.data ?? []).filter((p) => p.product_id === productId);
  const sensors = useQueries({
    queries: ofProduct.map((p) => ({
      queryKey: sensorKeys.ofProject(p.id),
      queryFn: () => http.get<TSensorList>(sensorPaths.list(p.id), { page: 1, limit: 200 }),
    })),
  });
  const keys = new Map<string, TProductKey>();
  for (const list of sensors)
    for (const s of list.data?.data ?? []) if (!keys.has(s.key)) keys.set(s.key, { key: s.key, name: s.name, unit: s.unit });
  return { keys: [...keys.values()], isLoading: projects.isLoading || sensors.some((s) => s.isLoading) };
}

/** Alert states that are still active (not resolved). */
const ACTIVE_STATES = ['open', 'acknowledged'] as const;

/**
 * The active alerts of the devices `tangramIds` (open or acknowledged, the latest 50 of each device and state within
 * the alerts list's default range), newest first. Queries share the alerts pages' keys, so their acknowledge and
 * resolve actions refresh these too.
 */
export function useActiveAlerts(tangramIds: readonly string[]) {
  const queries = useQueries({
    queries: tangramIds.flatMap((device) =>
      ACTIVE_STATES.map((state) => {
        const q: Partial<TAlertListQuery> = { device, state, page: 1, limit: 50 };
        return { queryKey: alertKeys.list(q), queryFn: () => http.get<TAlertList>(alertPaths.alerts, q, { quiet: true }) };
      }),
    ),
  });
  const alerts: TAlert[] = queries.flatMap((q) => q.data?.data ?? []).sort((a, b) => b.last_seen_at - a.last_seen_at);
  return { alerts, isLoading: queries.some((q) => q.isLoading), isError: queries.some((q) => q.isError) };
}
