/** The project's undeclared-key setting (docs/decisions/telemetry.md "Undeclared keys") as TanStack Query hooks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsPaths, type TUndeclaredKeySetting } from '@tessera/contracts';
import { http } from '../../lib/http';
import { projectKeys } from '../projects/api';
import { sensorKeys } from '../sensors/api';

/** Query key of the project's undeclared-key setting, under the project's key. */
export const undeclaredKeySettingKey = (projectId: number) => [...projectKeys.detail(projectId), 'undeclared-keys'] as const;

/** GET projects/{id}/undeclared-keys/setting. */
export function useUndeclaredKeySetting(projectId: number) {
  return useQuery({
    queryKey: undeclaredKeySettingKey(projectId),
    queryFn: () => http.get<TUndeclaredKeySetting>(settingsPaths.undeclaredKeySetting(projectId)),
  });
}

/** PUT projects/{id}/undeclared-keys/setting (quiet: the card says when it failed); the configure tab reads it again. */
export function useSaveUndeclaredKeySetting(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TUndeclaredKeySetting) =>
      http.put<TUndeclaredKeySetting>(settingsPaths.undeclaredKeySetting(projectId), body, { quiet: true }),
    onSuccess: (saved) => {
      qc.setQueryData(undeclaredKeySettingKey(projectId), saved);
      void qc.invalidateQueries({ queryKey: sensorKeys.ofProject(projectId) });
    },
  });
}
