/** A project's outbound webhooks as TanStack Query hooks (docs/decisions/webhooks.md). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type TWebhook,
  type TWebhookDelivery,
  type TWebhookDeliveryPage,
  type TWebhookInput,
  type TWebhookList,
  type TWebhookWithSecret,
  webhookPaths,
} from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys of the webhooks of a project. */
export const webhookKeys = {
  list: (projectId: number) => ['webhooks', projectId] as const,
  /** Every page of one webhook's delivery log. */
  deliveriesOf: (projectId: number, id: number) => [...webhookKeys.list(projectId), id, 'deliveries'] as const,
  deliveries: (projectId: number, id: number, page: number) => [...webhookKeys.deliveriesOf(projectId, id), page] as const,
};

/** GET projects/{id}/webhooks. */
export function useWebhooks(projectId: number) {
  return useQuery({ queryKey: webhookKeys.list(projectId), queryFn: () => http.get<TWebhookList>(webhookPaths.list(projectId)) });
}

/** POST (no id: create, answers the secret) or PUT (update) a webhook; refreshes the list. */
export function useSaveWebhook(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: TWebhookInput }) =>
      id === undefined
        ? http.post<TWebhookWithSecret>(webhookPaths.list(projectId), body)
        : http.put<TWebhook>(webhookPaths.one(projectId, id), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.list(projectId) }),
  });
}

/** DELETE a webhook; refreshes the list. */
export function useDeleteWebhook(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(webhookPaths.one(projectId, id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.list(projectId) }),
  });
}

/** POST …/secret: a new signing secret, answered once. */
export function useRotateWebhookSecret(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<TWebhookWithSecret>(`${webhookPaths.one(projectId, id)}/secret`),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.list(projectId) }),
  });
}

/** POST …/test: queues a test delivery; the log refreshes. */
export function useSendTestWebhook(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<TWebhookDelivery>(webhookPaths.test(projectId, id)),
    onSuccess: (_d, id) => qc.invalidateQueries({ queryKey: webhookKeys.deliveriesOf(projectId, id) }),
  });
}

/** GET …/deliveries, refreshed every 2 s while a delivery is pending. */
export function useWebhookDeliveries(projectId: number, id: number | null, page: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(projectId, id ?? 0, page),
    queryFn: () => http.get<TWebhookDeliveryPage>(webhookPaths.deliveries(projectId, id ?? 0), { page, limit: 10 }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'pending') ? 2000 : false),
  });
}
