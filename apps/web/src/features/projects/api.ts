/** Project calls (spec §7 `/frontstage/v1/projects`, template tangramProducts) as TanStack Query hooks. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  paths,
  type TDevice,
  type TDeviceBulkRegister,
  type TDeviceRegister,
  type TDeviceRegistered,
  type TDeviceUpdate,
  type TListQuery,
  type TProject,
  type TProjectCreate,
  type TTangramProductList,
} from '@tessera/contracts';
import type { z } from 'zod';
import type { ZDeviceList, ZProjectList } from '@tessera/contracts';
import { http } from '../../lib/http';
import { deviceKeys } from '../devices/api';

/**
 * Query keys of the project pages. `detail(id)` is the prefix of everything under one project (its device pages
 * and the settings tabs' queries), so invalidating it refreshes the whole detail page.
 */
export const projectKeys = {
  all: ['projects'] as const,
  list: (q: TListQuery) => ['projects', 'list', q] as const,
  detail: (id: number) => ['projects', id] as const,
  devices: (id: number) => ['projects', id, 'devices'] as const,
  devicePage: (id: number, q: TListQuery) => ['projects', id, 'devices', q] as const,
  tangramProducts: (q: string | undefined) => ['tangram-products', q] as const,
};

/** GET projects: a page of the tenant's projects; `enabled` false: not fetched (a picker showing products). */
export function useProjects(query: TListQuery, enabled = true) {
  return useQuery({
    queryKey: projectKeys.list(query),
    enabled,
    queryFn: () => http.get<z.infer<typeof ZProjectList>>(paths.projects, query),
    placeholderData: keepPreviousData,
  });
}

/** GET projects/{id}. */
export function useProject(id: number) {
  return useQuery({ queryKey: projectKeys.detail(id), queryFn: () => http.get<TProject>(paths.project(id)), enabled: id > 0 });
}

/** POST projects. */
export function useCreateProject() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TProjectCreate) => http.post<TProject>(paths.projects, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

/** GET template/tangramProducts: one page (25, §9) of the hardware-module catalogue, searchable. */
export function useTangramProducts(q: string | undefined) {
  return useQuery({
    queryKey: projectKeys.tangramProducts(q),
    queryFn: () => http.get<TTangramProductList>(paths.tangramProducts, { page: 1, q }),
    placeholderData: keepPreviousData,
  });
}

/** GET projects/{id}/devices: a page of the project's devices. */
export function useProjectDevices(id: number, query: TListQuery) {
  return useQuery({
    queryKey: projectKeys.devicePage(id, query),
    queryFn: () => http.get<z.infer<typeof ZDeviceList>>(paths.projectDevices(id), query),
    placeholderData: keepPreviousData,
  });
}

/** POST projects/{id}/devices: registers a device; the answer carries its secret, shown once. */
export function useRegisterDevice(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TDeviceRegister) => http.post<TDeviceRegistered>(paths.projectDevices(id), body),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: projectKeys.detail(id) });
      void qc.invalidateQueries({ queryKey: deviceKeys.all });
    },
  });
}

/** POST projects/{id}/devices/bulk: registers many, all or nothing; each answer carries its secret, shown once. */
export function useBulkRegisterDevices(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TDeviceBulkRegister) => http.post<TDeviceRegistered[]>(paths.projectDevicesBulk(id), body),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: projectKeys.detail(id) });
      void qc.invalidateQueries({ queryKey: deviceKeys.all });
    },
  });
}

/** PUT devices/{tangramId}: the device's name and/or nickname (from the project's devices tab); failures are the caller's to show. */
export function useUpdateDevice(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ tangramId, body }: { tangramId: string; body: TDeviceUpdate }) =>
      // quiet: the cell shows the §8 update-failure dialog itself (lib/useErrorDialog), not the client's generic one
      http.put<TDevice>(paths.device(tangramId), body, { quiet: true }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: projectKeys.devices(projectId) });
      void qc.invalidateQueries({ queryKey: deviceKeys.all });
    },
  });
}
