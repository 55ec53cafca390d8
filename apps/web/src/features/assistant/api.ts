/**
 * The assistant's calls (spec §1 AI assistant, 13:25; `/frontstage-ai/v1/assistant`) as TanStack Query hooks over
 * the console's HTTP client. The answer's event stream is read by stream.ts.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  assistantPaths,
  type TAssistantConversation,
  type TAssistantConversationDetail,
  type TAssistantConversationList,
  type TAssistantStatus,
} from '@tessera/contracts';
import { http } from '../../lib/http';

/** Query keys; `all` prefixes every one. */
export const assistantKeys = {
  all: ['assistant'] as const,
  status: ['assistant', 'status'] as const,
  conversations: ['assistant', 'conversations'] as const,
  conversation: (id: number) => ['assistant', 'conversations', id] as const,
};

/** How many conversations the panel lists. */
export const CONVERSATIONS_SHOWN = 50;

/** GET assistant/status; `enabled` only for accounts granted 13:25 (others get 403). */
export function useAssistantStatus(enabled: boolean) {
  return useQuery({
    queryKey: assistantKeys.status,
    queryFn: () => http.get<TAssistantStatus>(assistantPaths.status, undefined, { quiet: true }),
    enabled,
    staleTime: 60_000,
  });
}

/** GET assistant/conversations: the newest CONVERSATIONS_SHOWN. */
export function useConversations(enabled: boolean) {
  return useQuery({
    queryKey: assistantKeys.conversations,
    queryFn: () => http.get<TAssistantConversationList>(assistantPaths.conversations, { page: 1, limit: CONVERSATIONS_SHOWN }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** GET assistant/conversations/{id}; disabled while `id` is null. */
export function useConversation(id: number | null) {
  return useQuery({
    queryKey: assistantKeys.conversation(id ?? 0),
    queryFn: () => http.get<TAssistantConversationDetail>(assistantPaths.conversation(id ?? 0)),
    enabled: id !== null,
  });
}

/** POST assistant/conversations. */
export function useCreateConversation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.post<TAssistantConversation>(assistantPaths.conversations, {}),
    onSuccess: () => qc.invalidateQueries({ queryKey: assistantKeys.conversations }),
  });
}

/** DELETE assistant/conversations/{id}. */
export function useDeleteConversation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<void>(assistantPaths.conversation(id)),
    onSuccess: (_v, id) => {
      qc.removeQueries({ queryKey: assistantKeys.conversation(id) });
      return qc.invalidateQueries({ queryKey: assistantKeys.conversations });
    },
  });
}
