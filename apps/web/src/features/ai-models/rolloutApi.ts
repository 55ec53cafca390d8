/**
 * Rollout calls (contracts model-deployments.ts: deploying a revision, the rollouts, their devices, retry, removal)
 * as TanStack Query hooks over the HTTP client. A rollout and its devices reload every second while a device is
 * pending or downloading, and stop once every state is final.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  modelDeploymentPaths,
  type TRollout,
  type TRolloutDevicePage,
  type TRolloutDeviceQuery,
  type TRolloutInput,
  type TRolloutListQuery,
  type TRolloutPage,
  type TRolloutRetry,
} from '@tessera/contracts';
import { http } from '../../lib/http';
import { aiModelKeys } from './api';
import { ROLLOUT_REFRESH_MS, rolloutRefreshMs } from './model/rolloutProgress';

/** Query keys of the rollouts; under `ai-models`, so a change to a model's revisions refreshes them too. */
export const rolloutKeys = {
  all: ['ai-models', 'rollouts'] as const,
  list: (q: TRolloutListQuery) => ['ai-models', 'rollouts', 'list', q] as const,
  item: (id: number) => ['ai-models', 'rollouts', 'item', id] as const,
  devices: (id: number, q: TRolloutDeviceQuery) => ['ai-models', 'rollouts', 'item', id, 'devices', q] as const,
};

/**
 * GET model-rollouts: a page of rollouts, newest first (`model_id` narrows to one model). Reloads every second while
 * a rollout on the page still has a device moving.
 */
export function useRollouts(q: TRolloutListQuery) {
  return useQuery({
    queryKey: rolloutKeys.list(q),
    queryFn: () => http.get<TRolloutPage>(modelDeploymentPaths.rollouts, q),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some((r) => rolloutRefreshMs(r.counts) !== false) ? ROLLOUT_REFRESH_MS : false),
  });
}

/** GET model-rollouts/{id} (quiet: the page says "not found" itself); reloads every second until settled. */
export function useRollout(id: number) {
  return useQuery({
    queryKey: rolloutKeys.item(id),
    queryFn: () => http.get<TRollout>(modelDeploymentPaths.rollout(id), undefined, { quiet: true }),
    retry: (failures, err) => failures < 2 && ![403, 404].includes((err as { status?: number }).status ?? 0),
    refetchInterval: (query) => (query.state.status === 'error' ? false : rolloutRefreshMs(query.state.data?.counts)),
  });
}

/**
 * GET model-rollouts/{id}/devices: a page of the rollout's devices. `moving` (the rollout is not settled) keeps it
 * reloading every second, as does a device on the page still pending or downloading.
 */
export function useRolloutDevices(id: number, q: TRolloutDeviceQuery, moving: boolean) {
  return useQuery({
    queryKey: rolloutKeys.devices(id, q),
    queryFn: () => http.get<TRolloutDevicePage>(modelDeploymentPaths.rolloutDevices(id), q),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      moving || query.state.data?.data.some((d) => d.state === 'pending' || d.state === 'downloading') ? ROLLOUT_REFRESH_MS : false,
  });
}

/** POST ai-models/{id}/revisions/{rev}/rollouts: deploys revision `rev`; answers the new rollout. */
export function useDeployRevision(modelId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ revision, body }: { revision: number; body: TRolloutInput }) =>
      http.post<TRollout>(modelDeploymentPaths.deploy(modelId, revision), body, { quiet: true }),
    // The revisions' "deployed" flags change too.
    onSuccess: () => qc.invalidateQueries({ queryKey: aiModelKeys.all }),
  });
}

/** POST model-rollouts/{id}/retry: sends the failed devices their model again; answers how many. */
export function useRetryRollout(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.post<TRolloutRetry>(modelDeploymentPaths.retry(id), undefined, { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: rolloutKeys.all }),
  });
}

/** DELETE model-rollouts/{id}: removes the revision from the rollout's devices that still hold it. */
export function useRemoveRollout(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.del<void>(modelDeploymentPaths.rollout(id), { quiet: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: aiModelKeys.all }),
  });
}
