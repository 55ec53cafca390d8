/** The project's gateway setting (docs/decisions/device-apis.md "Gateway") as TanStack Query hooks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { paths, type TProjectGatewaySettings } from '@tessera/contracts';
import { http } from '../../lib/http';
import { projectKeys } from '../projects/api';

/** Query key of the project's gateway setting, under the project's key. */
export const gatewaySettingKey = (projectId: number) => [...projectKeys.detail(projectId), 'gateway'] as const;

/** GET projects/{id}/gateway. */
export function useGatewaySetting(projectId: number) {
  return useQuery({
    queryKey: gatewaySettingKey(projectId),
    queryFn: () => http.get<TProjectGatewaySettings>(paths.projectGateway(projectId)),
  });
}

/** PUT projects/{id}/gateway (quiet: the card says when it failed). */
export function useSaveGatewaySetting(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TProjectGatewaySettings) =>
      http.put<TProjectGatewaySettings>(paths.projectGateway(projectId), body, { quiet: true }),
    onSuccess: (saved) => qc.setQueryData(gatewaySettingKey(projectId), saved),
  });
}
