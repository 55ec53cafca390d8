/**
 * Test fixtures of the AI assistant: the feature codes of an account with the assistant, reading a Server-Sent Events
 * answer, and asking a question through the API as a browser does (a conversation, then a message).
 */
import {
  ASSISTANT_FEATURE,
  assistantPaths,
  DEFAULT_FEATURES,
  type TAssistantConversation,
  type TAssistantStreamEvent,
} from '@tessera/contracts';
import type { TTestServer } from '../../../test/helpers.js';

/** The default feature codes of `level` plus the assistant's (13:25). */
export const withAi = (level: 'vendor' | 'user') => [...DEFAULT_FEATURES[level], ASSISTANT_FEATURE];

/** The events of a Server-Sent Events body, in order. */
export function parseSse(text: string): TAssistantStreamEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('event: '))
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1] ?? 'null';
      return { event, data: JSON.parse(data) } as TAssistantStreamEvent;
    });
}

/** Starts a conversation as the account holding `token`; answers its id. */
export async function newConversationVia(server: TTestServer, token: string): Promise<number> {
  return (await server.api<TAssistantConversation>('POST', assistantPaths.conversations, { token, body: {} })).body.id;
}

/**
 * Asks `content` (in English) as the account holding `token`, in conversation `conversationId` or a new one; answers the
 * conversation's id, the HTTP answer and, when it is 200, its events.
 */
export async function askVia(server: TTestServer, token: string, content: string, conversationId?: number) {
  const id = conversationId ?? (await newConversationVia(server, token));
  const res = await server.api<string & { code?: string; message?: string }>('POST', assistantPaths.messages(id), {
    token,
    body: { content, language: 'en' },
  });
  return { id, res, events: res.status === 200 ? parseSse(String(res.body)) : [] };
}
