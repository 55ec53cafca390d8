/** Project settings calls (notification and system tabs) as TanStack Query hooks. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  paths,
  settingsPaths,
  type TFeeEstimate,
  type TNotificationEmails,
  type TNotificationEmailTestResult,
  type TProject,
  type TProjectCopy,
  type TProjectUpdate,
  type TProvisioning,
} from '@tessera/contracts';
import { http } from '../../lib/http';
import { projectKeys } from '../projects/api';

/** Query keys of the system and notification tabs, under the project's key. */
export const projectSettingKeys = {
  notificationEmails: (projectId: number) => [...projectKeys.detail(projectId), 'notification-emails'] as const,
  provisioning: (projectId: number) => [...projectKeys.detail(projectId), 'provisioning'] as const,
  feeEstimate: (projectId: number) => [...projectKeys.detail(projectId), 'fee-estimate'] as const,
};

/** GET projects/{id}/notification/emails. */
export function useNotificationEmails(projectId: number) {
  return useQuery({
    queryKey: projectSettingKeys.notificationEmails(projectId),
    queryFn: () => http.get<TNotificationEmails>(settingsPaths.notificationEmails(projectId)),
  });
}

/** PUT projects/{id}/notification/emails: replaces the list. */
export function useSaveNotificationEmails(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TNotificationEmails) => http.put<TNotificationEmails>(settingsPaths.notificationEmails(projectId), body),
    onSuccess: (saved) => qc.setQueryData(projectSettingKeys.notificationEmails(projectId), saved),
  });
}

/** POST notification/email/test: answers how many mails were queued. */
export function useSendTestMail(projectId: number) {
  return useMutation({
    mutationFn: () => http.post<TNotificationEmailTestResult>(settingsPaths.notificationEmailTest, { project_id: projectId }),
  });
}

/** GET projects/{id}/provisioning. */
export function useProvisioning(projectId: number) {
  return useQuery({
    queryKey: projectSettingKeys.provisioning(projectId),
    queryFn: () => http.get<TProvisioning>(settingsPaths.provisioning(projectId)),
  });
}

/** GET projects/{id}/fee-estimate. */
export function useFeeEstimate(projectId: number) {
  return useQuery({
    queryKey: projectSettingKeys.feeEstimate(projectId),
    queryFn: () => http.get<TFeeEstimate>(settingsPaths.feeEstimate(projectId)),
  });
}

/** PUT projects/{id}: name, description, device authorisation method. */
export function useUpdateProject(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TProjectUpdate) => http.put<TProject>(paths.project(projectId), body),
    onSuccess: (project) => {
      qc.setQueryData(projectKeys.detail(projectId), project);
      void qc.invalidateQueries({ queryKey: projectKeys.all });
    },
  });
}

/** POST projects/copy: answers the new project. */
export function useCopyProject() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TProjectCopy) => http.post<TProject>(paths.projectCopy, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.all }),
  });
}
