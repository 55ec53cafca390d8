/**
 * Data layer of a device's access token (ThingsBoard's device API; docs/decisions/device-apis.md "Access tokens"):
 * GET answers it masked, POST issues a new one and answers it once in full. Both quiet: the dialog explains failures.
 */
import { paths, type TDeviceCredentials } from '@tessera/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';

const quiet = { quiet: true };

/** Query key of a device's credentials. */
export const credentialsKey = (tangramId: string) => ['devices', 'credentials', tangramId] as const;

/** GET devices/{tangramId}/credentials while `enabled` (the dialog is open). */
export function useDeviceCredentials(tangramId: string, enabled: boolean) {
  return useQuery({
    queryKey: credentialsKey(tangramId),
    queryFn: () => http.get<TDeviceCredentials>(paths.deviceCredentials(tangramId), undefined, quiet),
    enabled,
  });
}

/**
 * POST devices/{tangramId}/credentials: a new token (the old one stops working and its connections are closed). The
 * cached credentials keep only the masked form; the full token is the mutation's answer alone.
 */
export function useRotateDeviceAccessToken(tangramId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.post<TDeviceCredentials>(paths.deviceCredentials(tangramId), undefined, quiet),
    onSuccess: (answer) => qc.setQueryData<TDeviceCredentials>(credentialsKey(tangramId), { ...answer, access_token: null }),
  });
}
