/**
 * Data layer of the device detail's control parts (spec §7 devices: PUT, remoteControl, userRules,
 * configFCMStatus, clean-data) as TanStack Query hooks. Calls whose failure the page explains itself (command
 * timeouts, a wrong password, an update failure dialog) are `quiet`, so the client's generic 5xx dialog stays away.
 */
import {
  deviceControlPaths,
  paths,
  type TCleanDataResult,
  type TDevice,
  type TDeviceCommandLog,
  type TDeviceDetail,
  type TDeviceInfoAnswer,
  type TDeviceSecret,
  type TDeviceUpdate,
  type TFcmStatus,
  type TWebPushKey,
  webPushPaths,
  type TPage,
  type TSensorCommandAnswer,
  type TSensorCommandRequest,
  type TUserRule,
  type TUserRuleInput,
  type TUserRuleUpdate,
} from '@tessera/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { deviceKeys } from './api';

const quiet = { quiet: true };

/** Query keys of the control parts. */
export const controlKeys = {
  commands: (tangramId: string, page: number) => ['devices', 'commands', tangramId, page] as const,
  allCommands: (tangramId: string) => ['devices', 'commands', tangramId] as const,
  rules: (tangramId: string) => ['devices', 'user-rules', tangramId] as const,
  fcm: (tangramId: string) => ['devices', 'fcm', tangramId] as const,
};

/** PUT devices/{tangramId}: name and nickname; the detail header updates from the answer. */
export function useUpdateDevice(tangramId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TDeviceUpdate) => http.put<TDevice>(paths.device(tangramId), body, quiet),
    onSuccess: (device) => {
      qc.setQueryData<TDeviceDetail>(deviceKeys.detail(tangramId), (old) => (old ? { ...old, ...device } : old));
      void qc.invalidateQueries({ queryKey: deviceKeys.lists });
    },
  });
}

/**
 * POST devices/{tangramId}/secret: a new MQTT secret, answered once (docs/decisions/devices-bulk.md "Regenerating a
 * device's secret"). Quiet: the button shows its own failure dialog. The device is disconnected, so its detail
 * (online) is refetched.
 */
export function useRegenerateDeviceSecret(tangramId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.post<TDeviceSecret>(paths.deviceSecret(tangramId), undefined, quiet),
    onSuccess: () => qc.invalidateQueries({ queryKey: deviceKeys.detail(tangramId) }),
  });
}

/** Refreshes the command log after a command, whatever its outcome (every command is audited). */
function useCommandMutation<TVars, TAnswer>(tangramId: string, send: (vars: TVars) => Promise<TAnswer>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => qc.invalidateQueries({ queryKey: controlKeys.allCommands(tangramId) }),
  });
}

/** POST remoteControl/getDeviceInfo. */
export function useGetDeviceInfo(tangramId: string) {
  return useCommandMutation(tangramId, () => http.post<TDeviceInfoAnswer>(deviceControlPaths.getDeviceInfo(tangramId), undefined, quiet));
}

/** POST remoteControl/sensorCommand. */
export function useSensorCommand(tangramId: string) {
  return useCommandMutation(tangramId, (body: TSensorCommandRequest) =>
    http.post<TSensorCommandAnswer>(deviceControlPaths.sensorCommand(tangramId), body, quiet),
  );
}

/** Page size of the recent-commands table. */
export const COMMANDS_PAGE_SIZE = 10;

/** GET remoteControl/commands: the audit log, newest first. */
export function useCommandLog(tangramId: string, page: number) {
  return useQuery({
    queryKey: controlKeys.commands(tangramId, page),
    queryFn: () => http.get<TPage<TDeviceCommandLog>>(deviceControlPaths.commands(tangramId), { page, limit: COMMANDS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
}

/** GET userRules (at most USER_RULES_MAX per user; a vendor sees every user's, so ask for a full page). */
export function useUserRules(tangramId: string) {
  return useQuery({
    queryKey: controlKeys.rules(tangramId),
    queryFn: () => http.get<TPage<TUserRule>>(deviceControlPaths.userRules(tangramId), { limit: 200 }),
  });
}

/** POST, PUT and DELETE userRules; each refreshes the list. */
export function useSaveUserRule(tangramId: string) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: controlKeys.rules(tangramId) });
  return {
    create: useMutation({
      mutationFn: (body: TUserRuleInput) => http.post<TUserRule>(deviceControlPaths.userRules(tangramId), body),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: number; body: TUserRuleUpdate }) =>
        http.put<TUserRule>(deviceControlPaths.userRule(tangramId, id), body),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => http.del<void>(deviceControlPaths.userRule(tangramId, id)),
      onSuccess: refresh,
    }),
  };
}

/** GET devices/configFCMStatus: the caller's push switch for the device. */
export function useFcmStatus(tangramId: string) {
  return useQuery({
    queryKey: controlKeys.fcm(tangramId),
    queryFn: () => http.get<TFcmStatus>(deviceControlPaths.fcmStatus, { tangram_id: tangramId }),
  });
}

/** GET the server's VAPID public key, then POST this browser's push subscription (web-push/subscriptions). */
export async function registerThisBrowser(subscription: PushSubscriptionJSON): Promise<void> {
  await http.post<{ id: number }>(webPushPaths.subscriptions, { endpoint: subscription.endpoint, keys: subscription.keys });
}

/** The server's VAPID public key (what this browser subscribes with). */
export function fetchPushKey(): Promise<TWebPushKey> {
  return http.get<TWebPushKey>(webPushPaths.key);
}

/** PUT devices/configFCMStatus. */
export function useSetFcmStatus(tangramId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => http.put<TFcmStatus>(deviceControlPaths.fcmStatus, { tangram_id: tangramId, enabled }),
    onSuccess: (status) => qc.setQueryData(controlKeys.fcm(tangramId), status),
  });
}

/** POST clean-data with the caller's password; the device's charts and twin reload afterwards. */
export function useCleanData(tangramId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => http.post<TCleanDataResult>(deviceControlPaths.cleanData(tangramId), { password }, quiet),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: deviceKeys.twin(tangramId) });
      void qc.invalidateQueries({ queryKey: deviceKeys.allTimeseries });
    },
  });
}
