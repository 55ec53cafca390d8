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

/** Query keys of the LINE pages; `all` is the prefix of every one (a new official account refreshes them all). */
export const lineKeys = {
  all: ['line'] as const,
  officialAccount: ['line', 'official-account'] as const,
  accountLink: ['line', 'account-link'] as const,
  chats: ['line', 'chats'] as const,
  users: ['line', 'users'] as const,
  groups: ['line', 'groups'] as const,
  group: (id: number) => ['line', 'groups', id] as const,
};

/** GET line/official-account (vendor). */
export function useOfficialAccount(enabled = true) {
  return useQuery({
    queryKey: lineKeys.officialAccount,
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
      qc.setQueryData(lineKeys.officialAccount, state);
      void qc.invalidateQueries({ queryKey: lineKeys.accountLink });
    },
  });
}

/** DELETE line/official-account. */
export function useDeleteOfficialAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.del<void>(linePaths.officialAccount),
    onSuccess: () => qc.invalidateQueries({ queryKey: lineKeys.all }),
  });
}

/** GET line/chats: group chats the bot is in (vendor). Always refetched: LINE events change it, not the console. */
export function useLineChats(enabled = true) {
  return useQuery({ queryKey: lineKeys.chats, queryFn: () => http.get<TLineChats>(linePaths.chats), enabled, staleTime: 0 });
}

/** GET user: the tenant's accounts with a LINE link (vendor). Always refetched, like the chats. */
export function useLinkedUsers(enabled = true) {
  return useQuery({ queryKey: lineKeys.users, queryFn: () => http.get<TLineLinkedUsers>(linePaths.users), enabled, staleTime: 0 });
}

/** GET message-flow: the tenant's groups (vendor). */
export function useGroups(enabled = true) {
  return useQuery({ queryKey: lineKeys.groups, queryFn: () => http.get<TLineGroups>(linePaths.groups), enabled });
}

/** GET message-flow/{id}. */
export function useGroup(id: number) {
  return useQuery({ queryKey: lineKeys.group(id), queryFn: () => http.get<TLineGroup>(linePaths.group(id)), enabled: id > 0 });
}

/** POST message-flow (no `id`) or PUT message-flow/{id}. */
export function useSaveGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: TLineGroupInput }) =>
      id === null ? http.post<TLineGroup>(linePaths.groups, input) : http.put<TLineGroup>(linePaths.group(id), input),
    onSuccess: (group) => {
      qc.setQueryData(lineKeys.group(group.id), group);
      void qc.invalidateQueries({ queryKey: lineKeys.groups, exact: true });
    },
  });
}

/** DELETE message-flow/{id}. */
export function useDeleteGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(linePaths.group(id)),
    onSuccess: () => qc.invalidateQueries({ queryKey: lineKeys.groups }),
  });
}

/** POST message-flow/{id}/test: each member's outcome. */
export function useTestGroup(id: number) {
  return useMutation({ mutationFn: () => http.post<TLineGroupTestResult>(linePaths.groupTest(id)) });
}

/**
 * GET account-link: the caller's own LINE link (the LINE page's card, and the LINE switch of the subscription
 * cards). Quiet: the cards show what they know; a failed status fetch is not worth a dialog.
 */
export function useAccountLinkStatus() {
  return useQuery({
    queryKey: lineKeys.accountLink,
    queryFn: () => http.get<TAccountLinkStatus>(linePaths.accountLink, undefined, { quiet: true }),
  });
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
    onSuccess: () => qc.invalidateQueries({ queryKey: lineKeys.all }),
  });
}
