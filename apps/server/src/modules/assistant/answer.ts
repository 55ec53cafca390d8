/**
 * Answering a question (docs/decisions/ai.md "Assistant: an answer"): store the question (it names an untitled
 * conversation), call the endpoint with the conversation so far and the tools, run the tool calls it asks for on the
 * caller's principal (at most ASSISTANT_TOOL_ROUNDS_MAX rounds; then one call without tools must answer in text),
 * stream the text as it arrives, and store the answer with the tools it used and the commands it proposed. Events go
 * to `emit` in stream order.
 */
import {
  ASSISTANT_HISTORY_MAX,
  ASSISTANT_TOOL_ROUNDS_MAX,
  AssistantErrorCode,
  type TAssistantAction,
  type TAssistantMessageInput,
  type TAssistantStreamEvent,
  type TAssistantToolUse,
} from '@tessera/contracts';
import { desc, eq } from 'drizzle-orm';
import type { TConfig } from '../../core/config.js';
import type { TFlowRuntime } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { assistantConversations, assistantMessages } from '../../db/schema.js';
import { streamChat, type TChatEndpoint, type TChatMessage } from './chat-client.js';
import { titleOf } from './conversations.js';
import { addTokens } from './limits.js';
import { systemPrompt, toolResultContent } from './prompt.js';
import { ASSISTANT_TOOLS } from './tool-definitions.js';
import { runAssistantTool } from './tools.js';

/** What answering needs. */
export interface TAnswerDeps {
  db: Db;
  flows: TFlowRuntime;
  config: TConfig;
}

/** Receives the stream's events in order. */
export type TEmit = (event: TAssistantStreamEvent) => void;

/** The configured endpoint. @throws AppError 503 ASSISTANT_NOT_CONFIGURED without AI_BASE_URL and AI_MODEL. */
export function endpointOf(config: TConfig): TChatEndpoint {
  const { baseUrl, apiKey, model } = config.ai;
  if (!baseUrl || !model) {
    throw new AppError(
      503,
      AssistantErrorCode.NotConfigured,
      'the AI assistant is not configured on this platform (AI_BASE_URL, AI_MODEL)',
    );
  }
  return { baseUrl, apiKey, model };
}

async function history(db: Db, conversationId: number): Promise<TChatMessage[]> {
  const rows = await db
    .select({ role: assistantMessages.role, content: assistantMessages.content })
    .from(assistantMessages)
    .where(eq(assistantMessages.conversationId, conversationId))
    .orderBy(desc(assistantMessages.id))
    .limit(ASSISTANT_HISTORY_MAX);
  return rows.reverse().map((r) => ({ role: r.role, content: r.content }));
}

/**
 * Answers `input` in conversation `conversation` (already checked to be the caller's, its request already taken),
 * emitting `tool`, `action` and `delta` events and then `done`, or `error` with a code (ASSISTANT_UPSTREAM_ERROR,
 * ASSISTANT_TOOL_ROUNDS). Never throws for the endpoint's failures; `signal` aborts when the person goes away.
 */
export async function answerQuestion(
  deps: TAnswerDeps,
  principal: TPrincipal,
  conversation: { id: number; title: string },
  input: { content: string; language: NonNullable<TAssistantMessageInput['language']> },
  emit: TEmit,
  signal?: AbortSignal,
): Promise<void> {
  const { db, config } = deps;
  const endpoint = endpointOf(config);
  const earlier = await history(db, conversation.id);
  await db.insert(assistantMessages).values({ conversationId: conversation.id, role: 'user', content: input.content });
  if (!conversation.title) {
    await db
      .update(assistantConversations)
      .set({ title: titleOf(input.content), updatedAt: Date.now() })
      .where(eq(assistantConversations.id, conversation.id));
  }
  const messages: TChatMessage[] = [
    { role: 'system', content: systemPrompt(Date.now(), input.language) },
    ...earlier,
    { role: 'user', content: input.content },
  ];
  const tools: TAssistantToolUse[] = [];
  const actions: TAssistantAction[] = [];
  let text = '';
  let tokens = 0;
  const onText = (chunk: string) => {
    text += chunk;
    emit({ event: 'delta', data: { text: chunk } });
  };
  try {
    for (let round = 0; ; round += 1) {
      const offerTools = round < ASSISTANT_TOOL_ROUNDS_MAX;
      const turn = await streamChat(endpoint, messages, offerTools ? ASSISTANT_TOOLS : [], onText, signal);
      tokens += turn.tokens;
      await addTokens(db, principal.tenantId, Date.now(), turn.tokens);
      if (turn.toolCalls.length === 0) break;
      if (!offerTools) {
        emit({
          event: 'error',
          data: { code: AssistantErrorCode.ToolRounds, message: 'the model kept asking for tools without answering' },
        });
        return;
      }
      messages.push({ role: 'assistant', content: turn.text || null, tool_calls: turn.toolCalls });
      for (const call of turn.toolCalls) {
        const outcome = await runAssistantTool(deps, principal, call.function.name, call.function.arguments);
        tools.push(outcome.use);
        emit({ event: 'tool', data: outcome.use });
        if (outcome.action) {
          actions.push(outcome.action);
          emit({ event: 'action', data: outcome.action });
        }
        messages.push({ role: 'tool', tool_call_id: call.id, content: toolResultContent(call.function.name, outcome.data) });
      }
    }
  } catch (err) {
    if (signal?.aborted) return;
    if (!(err instanceof AppError)) throw err;
    emit({ event: 'error', data: { code: err.code, message: err.message } });
    return;
  }
  const [stored] = await db
    .insert(assistantMessages)
    .values({ conversationId: conversation.id, role: 'assistant', content: text, toolData: { tools, actions } })
    .returning({ id: assistantMessages.id });
  await db.update(assistantConversations).set({ updatedAt: Date.now() }).where(eq(assistantConversations.id, conversation.id));
  emit({ event: 'done', data: { message_id: stored.id, tokens } });
}
