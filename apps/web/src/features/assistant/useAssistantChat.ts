/**
 * The chat panel's state: the answer being streamed (text as it arrives, the tools it used, the commands it
 * proposed, an error code) on top of the stored conversation, which is refetched once the answer is done.
 */
import { useQueryClient } from '@tanstack/react-query';
import {
  assistantPaths,
  type TAssistantAction,
  type TAssistantConversationDetail,
  type TAssistantLanguage,
  type TAssistantToolUse,
} from '@tessera/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { HttpError, http } from '../../lib/http';
import { assistantKeys } from './api';
import { streamAnswer } from './stream';

/** The question being answered and the answer so far. */
export interface TPendingAnswer {
  question: string;
  text: string;
  tools: TAssistantToolUse[];
  actions: TAssistantAction[];
  /** An error code (the server's, or OFFLINE) when the answer failed. */
  error: string | null;
  streaming: boolean;
}

/** Sends questions to conversation `conversationId` and follows their answers. */
export function useAssistantChat(language: TAssistantLanguage) {
  const qc = useQueryClient();
  const [pending, setPending] = useState<TPendingAnswer | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const ask = useCallback(
    async (conversationId: number, question: string) => {
      abort.current?.abort();
      const ctrl = new AbortController();
      abort.current = ctrl;
      let state: TPendingAnswer = { question, text: '', tools: [], actions: [], error: null, streaming: true };
      const update = (next: Partial<TPendingAnswer>) => {
        state = { ...state, ...next };
        setPending(state);
      };
      update({});
      let storedId: number | null = null;
      let heard = false;
      try {
        await streamAnswer(
          conversationId,
          { content: question, language },
          (e) => {
            if (!heard) {
              // The question is stored (and names the conversation) before the first event: show the new title.
              heard = true;
              void qc.invalidateQueries({ queryKey: assistantKeys.conversations, exact: true });
            }
            if (e.event === 'delta') update({ text: state.text + e.data.text });
            else if (e.event === 'tool') update({ tools: [...state.tools, e.data] });
            else if (e.event === 'action') update({ actions: [...state.actions, e.data] });
            else if (e.event === 'error') update({ error: e.data.code });
            else storedId = e.data.message_id;
          },
          ctrl.signal,
        );
        if (storedId === null && !state.error && !ctrl.signal.aborted) update({ error: 'OFFLINE' });
      } catch (e) {
        update({ error: e instanceof HttpError ? e.code : 'OFFLINE' });
      }
      update({ streaming: false });
      // The stored answer replaces the streamed one once read back; a read started earlier (before the answer was
      // stored) is cancelled first so that it cannot land after this one.
      const key = assistantKeys.conversation(conversationId);
      await qc.cancelQueries({ queryKey: key, exact: true });
      const stored = await http.get<TAssistantConversationDetail>(assistantPaths.conversation(conversationId)).catch(() => null);
      if (stored) qc.setQueryData(key, stored);
      if (storedId !== null && stored?.messages.some((m) => m.id === storedId)) setPending(null);
      void qc.invalidateQueries({ queryKey: assistantKeys.conversations, exact: true });
      void qc.invalidateQueries({ queryKey: assistantKeys.status });
    },
    [qc, language],
  );

  const reset = useCallback(() => {
    abort.current?.abort();
    setPending(null);
  }, []);

  return { pending, ask, reset };
}
