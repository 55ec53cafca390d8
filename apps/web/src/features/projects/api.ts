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

/** GET projects: a page of the tenant's projects. */
export function useProjects(query: TListQuery) {
  return useQuery({
    queryKey: ['projects', query],
    queryFn: () => http.get<z.infer<typeof ZProjectList>>(paths.projects, query),
    placeholderData: keepPreviousData,
  });
}

/** GET projects/{id}. */
export function useProject(id: number) {
  return useQuery({ queryKey: ['projects', id], queryFn: () => http.get<TProject>(paths.project(id)), enabled: id > 0 });
}

/** POST projects. */
export function useCreateProject() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TProjectCreate) => http.post<TProject>(paths.projects, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['projects'] }),
  });
}

/** GET template/tangramProducts: one page (25, §9) of the hardware-module catalogue, searchable. */
export function useTangramProducts(q: string | undefined) {
  return useQuery({
    queryKey: ['tangram-products', q],
    queryFn: () => http.get<TTangramProductList>(paths.tangramProducts, { page: 1, q }),
    placeholderData: keepPreviousData,
  });
}

/** GET projects/{id}/devices: a page of the project's devices. */
export function useProjectDevices(id: number, query: TListQuery) {
  return useQuery({
    queryKey: ['projects', id, 'devices', query],
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
      void qc.invalidateQueries({ queryKey: ['projects', id] });
      void qc.invalidateQueries({ queryKey: ['devices'] });
    },
  });
}

/** POST projects/{id}/devices/bulk: registers many, all or nothing; each answer carries its secret, shown once. */
export function useBulkRegisterDevices(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TDeviceBulkRegister) => http.post<TDeviceRegistered[]>(paths.projectDevicesBulk(id), body),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['projects', id] });
      void qc.invalidateQueries({ queryKey: ['devices'] });
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
      void qc.invalidateQueries({ queryKey: ['projects', projectId, 'devices'] });
      void qc.invalidateQueries({ queryKey: ['devices'] });
    },
  });
}
