/**
 * LINE push calls (spec §7 `/notification/v1`: Line official account, user, message-flow, account-link) as TanStack
 * Query hooks over the console's HTTP client.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  linePaths,
  type TAccountLinkRedirect,
  type TAccountLinkStatus,
  type TLineChats,
  type TLineGroup,
  type TLineGroupInput,
  type TLineGroups,
  type TLineGroupTestResult,
  type TLineLinkedUsers,
  type TLineOfficialAccountInput,
  type TLineOfficialAccountState,
} from '@tessera/contracts';
import { http } from '../../lib/http';

const KEY = ['line'] as const;

/** GET line/official-account (vendor). */
export function useOfficialAccount(enabled = true) {
  return useQuery({
    queryKey: [...KEY, 'official-account'],
    queryFn: () => http.get<TLineOfficialAccountState>(linePaths.officialAccount),
    enabled,
  });
}

/** PUT line/official-account; the answer replaces the cached account. */
export function useSaveOfficialAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TLineOfficialAccountInput) => http.put<TLineOfficialAccountState>(linePaths.officialAccount, body),
    onSuccess: (state) => {
      qc.setQueryData([...KEY, 'official-account'], state);
      void qc.invalidateQueries({ queryKey: [...KEY, 'account-link'] });
    },
  });
}

/** DELETE line/official-account. */
export function useDeleteOfficialAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.del<void>(linePaths.officialAccount),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

/** GET line/chats: group chats the bot is in (vendor). Always refetched: LINE events change it, not the console. */
export function useLineChats(enabled = true) {
  return useQuery({ queryKey: [...KEY, 'chats'], queryFn: () => http.get<TLineChats>(linePaths.chats), enabled, staleTime: 0 });
}

/** GET user: the tenant's accounts with a LINE link (vendor). Always refetched, like the chats. */
export function useLinkedUsers(enabled = true) {
  return useQuery({ queryKey: [...KEY, 'users'], queryFn: () => http.get<TLineLinkedUsers>(linePaths.users), enabled, staleTime: 0 });
}

/** GET message-flow: the tenant's groups (vendor). */
export function useGroups(enabled = true) {
  return useQuery({ queryKey: [...KEY, 'groups'], queryFn: () => http.get<TLineGroups>(linePaths.groups), enabled });
}

/** GET message-flow/{id}. */
export function useGroup(id: number) {
  return useQuery({ queryKey: [...KEY, 'groups', id], queryFn: () => http.get<TLineGroup>(linePaths.group(id)), enabled: id > 0 });
}

/** POST message-flow (no `id`) or PUT message-flow/{id}. */
export function useSaveGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: TLineGroupInput }) =>
      id === null ? http.post<TLineGroup>(linePaths.groups, input) : http.put<TLineGroup>(linePaths.group(id), input),
    onSuccess: (group) => {
      qc.setQueryData([...KEY, 'groups', group.id], group);
      void qc.invalidateQueries({ queryKey: [...KEY, 'groups'], exact: true });
    },
  });
}

/** DELETE message-flow/{id}. */
export function useDeleteGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(linePaths.group(id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...KEY, 'groups'] }),
  });
}

/** POST message-flow/{id}/test: each member's outcome. */
export function useTestGroup(id: number) {
  return useMutation({ mutationFn: () => http.post<TLineGroupTestResult>(linePaths.groupTest(id)) });
}

/** GET account-link: the caller's own LINE link. */
export function useAccountLinkStatus() {
  return useQuery({ queryKey: [...KEY, 'account-link'], queryFn: () => http.get<TAccountLinkStatus>(linePaths.accountLink) });
}

/** POST account-link: the LINE URL that finishes the link. */
export function useStartAccountLink() {
  return useMutation({ mutationFn: (linkToken: string) => http.post<TAccountLinkRedirect>(linePaths.accountLink, { linkToken }) });
}

/** DELETE account-link. */
export function useUnlinkAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.del<void>(linePaths.accountLink),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}
