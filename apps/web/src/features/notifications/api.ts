/**
 * Notification calls as TanStack Query hooks: the caller's alert subscriptions of a device or project
 * (`/notification/v1/device|project`), and an alert's
 * deliveries (`/frontstage-alert/v1/alerts/{id}/deliveries`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  notificationPaths,
  type TAlertDeliveries,
  type TDeviceSubscription,
  type TSubscription,
  type TSubscriptionSettings,
} from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the subscription cards and the deliveries list (a device key is case-blind, as Tangram IDs are). */
export const notificationKeys = {
  devices: ['notification', 'device'] as const,
  device: (tangramId: string) => ['notification', 'device', tangramId.toUpperCase()] as const,
  project: (projectId: number) => ['notification', 'project', projectId] as const,
  deliveries: (alertId: number) => ['alerts', alertId, 'deliveries'] as const,
};

/** GET notification/v1/device/{tangramId}: the caller's subscription of the device (and the project one it inherits). */
export function useDeviceSubscription(tangramId: string) {
  return useQuery({
    queryKey: notificationKeys.device(tangramId),
    queryFn: () => http.get<TDeviceSubscription>(notificationPaths.device(tangramId)),
  });
}

/** PUT / DELETE notification/v1/device/{tangramId}: save the device subscription, or follow the project again. */
export function useSaveDeviceSubscription(tangramId: string) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: notificationKeys.device(tangramId) });
  return {
    save: useMutation({
      mutationFn: (body: TSubscriptionSettings) => http.put<TDeviceSubscription>(notificationPaths.device(tangramId), body),
      onSuccess: (saved) => qc.setQueryData(notificationKeys.device(tangramId), saved),
    }),
    reset: useMutation({ mutationFn: () => http.del<void>(notificationPaths.device(tangramId)), onSuccess: refresh }),
  };
}

/** GET notification/v1/project/{id}: the caller's subscription of the project. */
export function useProjectSubscription(projectId: number) {
  return useQuery({
    queryKey: notificationKeys.project(projectId),
    queryFn: () => http.get<TSubscription>(notificationPaths.project(projectId)),
  });
}

/** PUT notification/v1/project/{id}. Device subscriptions show the project one they inherit, so they refresh too. */
export function useSaveProjectSubscription(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TSubscriptionSettings) => http.put<TSubscription>(notificationPaths.project(projectId), body),
    onSuccess: (saved) => {
      qc.setQueryData(notificationKeys.project(projectId), saved);
      void qc.invalidateQueries({ queryKey: notificationKeys.devices });
    },
  });
}

/** GET frontstage-alert/v1/alerts/{id}/deliveries; refreshed every `refetchMs` while something is still pending. */
export function useAlertDeliveries(alertId: number, refetchMs = 5_000) {
  return useQuery({
    queryKey: notificationKeys.deliveries(alertId),
    queryFn: () => http.get<TAlertDeliveries>(notificationPaths.alertDeliveries(alertId)),
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'pending') ? refetchMs : false),
  });
}
