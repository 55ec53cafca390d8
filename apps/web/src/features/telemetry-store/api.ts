/** Telemetry storage calls (a project's retention and disk use; the platform's) as TanStack Query hooks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { storagePaths, type TAdminStorage, type TProjectStorage, type TRetention } from '@tessera/contracts';
import { http } from '../../lib/http';
import { projectKeys } from '../projects/api';

/** Query keys of the storage cards, under the project's key (and the admin's). */
export const storageKeys = {
  retention: (projectId: number) => [...projectKeys.detail(projectId), 'retention'] as const,
  usage: (projectId: number) => [...projectKeys.detail(projectId), 'storage'] as const,
  admin: ['admin', 'telemetry-storage'] as const,
};

/** GET projects/{id}/retention. */
export function useRetention(projectId: number) {
  return useQuery({ queryKey: storageKeys.retention(projectId), queryFn: () => http.get<TRetention>(storagePaths.retention(projectId)) });
}

/** PUT projects/{id}/retention; the storage card and the fee estimate follow. */
export function useSaveRetention(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TRetention) => http.put<TRetention>(storagePaths.retention(projectId), body),
    onSuccess: (saved) => {
      qc.setQueryData(storageKeys.retention(projectId), saved);
      void qc.invalidateQueries({ queryKey: projectKeys.detail(projectId) });
    },
  });
}

/** GET projects/{id}/storage: retention, disk use, last expiry. */
export function useProjectStorage(projectId: number) {
  return useQuery({
    queryKey: storageKeys.usage(projectId),
    queryFn: () => http.get<TProjectStorage>(storagePaths.projectStorage(projectId)),
  });
}

/** GET admin/telemetry-storage: the platform's disk use and the storage job's runs (platform admin). */
export function useAdminStorage() {
  return useQuery({ queryKey: storageKeys.admin, queryFn: () => http.get<TAdminStorage>(storagePaths.adminStorage) });
}
