/** A project's LoRaWAN integrations and a device's DevEUI as TanStack Query hooks (docs/decisions/lorawan.md). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  lorawanPaths,
  type TDeviceLorawan,
  type TDeviceLorawanInput,
  type TLorawanIntegration,
  type TLorawanIntegrationInput,
  type TLorawanIntegrationList,
  type TLorawanIntegrationWithSecret,
  type TLorawanUplinkLog,
} from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the LoRaWAN integrations of a project and of a device's DevEUI. */
export const lorawanKeys = {
  list: (projectId: number) => ['lorawan', projectId] as const,
  uplinks: (projectId: number, id: number) => [...lorawanKeys.list(projectId), id, 'uplinks'] as const,
  device: (tangramId: string) => ['lorawan', 'device', tangramId] as const,
};

/** GET projects/{id}/lorawan; refreshed every 5 s while an MQTT integration is listed (its connection state changes). */
export function useLorawanIntegrations(projectId: number) {
  return useQuery({
    queryKey: lorawanKeys.list(projectId),
    queryFn: () => http.get<TLorawanIntegrationList>(lorawanPaths.list(projectId)),
    refetchInterval: (query) => (query.state.data?.data.some((i) => i.transport === 'mqtt') ? 5000 : false),
  });
}

/** POST (no id: create, answers the secret) or PUT (update) an integration; refreshes the list. */
export function useSaveLorawanIntegration(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: TLorawanIntegrationInput }) =>
      id === undefined
        ? http.post<TLorawanIntegrationWithSecret>(lorawanPaths.list(projectId), body)
        : http.put<TLorawanIntegration>(lorawanPaths.one(projectId, id), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: lorawanKeys.list(projectId) }),
  });
}

/** DELETE an integration; refreshes the list. */
export function useDeleteLorawanIntegration(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(lorawanPaths.one(projectId, id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: lorawanKeys.list(projectId) }),
  });
}

/** POST …/secret: a new secret, answered once. */
export function useRotateLorawanSecret(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<TLorawanIntegrationWithSecret>(lorawanPaths.secret(projectId, id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: lorawanKeys.list(projectId) }),
  });
}

/** GET …/uplinks while the list is open (`id` set), refreshed every 5 s so a new uplink shows up. */
export function useLorawanUplinks(projectId: number, id: number | null) {
  return useQuery({
    queryKey: lorawanKeys.uplinks(projectId, id ?? 0),
    queryFn: () => http.get<TLorawanUplinkLog>(lorawanPaths.uplinks(projectId, id ?? 0)),
    enabled: id !== null,
    refetchInterval: 5000,
  });
}

/** GET devices/{tangramId}/lorawan while `enabled` (the dialog is open). */
export function useDeviceDevEui(tangramId: string, enabled: boolean) {
  return useQuery({
    queryKey: lorawanKeys.device(tangramId),
    queryFn: () => http.get<TDeviceLorawan>(lorawanPaths.device(tangramId), undefined, { quiet: true }),
    enabled,
  });
}

/** PUT devices/{tangramId}/lorawan: set or clear the DevEUI (quiet: the dialog shows the failure). */
export function useSetDeviceDevEui(tangramId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TDeviceLorawanInput) => http.put<TDeviceLorawan>(lorawanPaths.device(tangramId), body, { quiet: true }),
    onSuccess: (answer) => qc.setQueryData(lorawanKeys.device(tangramId), answer),
  });
}
