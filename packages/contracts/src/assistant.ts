/**
 * The AI assistant (spec §1 "an AI assistant module available only when feature code 13:25 is granted";
 * docs/decisions/ai.md "Assistant"): a chat over an OpenAI-compatible chat-completions endpoint that answers through
 * read-only tools run on the caller's own permissions. Conversations are kept per account; an answer streams as
 * Server-Sent Events (`delta`, `tool`, `action`, `done`, `error`).
 */
import { z } from 'zod';
import { ASSISTANT_FEATURE, assistantPaths } from './assistant-paths.js';
import { ZIdText } from './input.js';
import { zPage } from './pagination.js';

export { ASSISTANT_FEATURE, assistantPaths };

/** A question is 1 … this many characters. */
export const ASSISTANT_MESSAGE_MAX = 2_000;
/** A conversation title: at most this many characters (the first question, cut, when none is given). */
export const ASSISTANT_TITLE_MAX = 64;
/** At most this many model calls that ask for tools in one answer; one more call must answer in text. */
export const ASSISTANT_TOOL_ROUNDS_MAX = 4;
/** Earlier messages of the conversation sent with a question: the newest this many. */
export const ASSISTANT_HISTORY_MAX = 20;
/** Default per-tenant daily limits (UTC days): model calls, and tokens as the endpoint counts them (`usage`). */
export const AI_TENANT_DAILY_REQUESTS_DEFAULT = 500;
export const AI_TENANT_DAILY_TOKENS_DEFAULT = 2_000_000;

/**
 * Error codes: 503 NOT_CONFIGURED (no AI_BASE_URL/AI_MODEL); 429 REQUEST_LIMIT / TOKEN_LIMIT (the tenant's day is
 * used up); in the stream, UPSTREAM (the endpoint failed or answered nonsense) and TOOL_ROUNDS (the model kept asking
 * for tools).
 */
export const AssistantErrorCode = {
  NotConfigured: 'ASSISTANT_NOT_CONFIGURED',
  RequestLimit: 'ASSISTANT_REQUEST_LIMIT',
  TokenLimit: 'ASSISTANT_TOKEN_LIMIT',
  Upstream: 'ASSISTANT_UPSTREAM_ERROR',
  ToolRounds: 'ASSISTANT_TOOL_ROUNDS',
} as const;
/** One of {@link AssistantErrorCode}. */
export type TAssistantErrorCode = (typeof AssistantErrorCode)[keyof typeof AssistantErrorCode];

/** GET assistant/status: whether an endpoint is configured (its model's name) and what is left of today's limits. */
export const ZAssistantStatus = z.object({
  configured: z.boolean(),
  model: z.string().nullable(),
  limits: z.object({
    requests_per_day: z.number().int(),
    requests_left: z.number().int(),
    tokens_per_day: z.number().int(),
    tokens_left: z.number().int(),
    /** The next UTC midnight, epoch ms. */
    resets_at: z.number().int(),
  }),
});
export type TAssistantStatus = z.infer<typeof ZAssistantStatus>;

/** What a number in an answer links to: a device page, a history chart of a key, the alert history, a platform rule. */
export const ASSISTANT_REFERENCE_KINDS = ['device', 'chart', 'alert', 'rule'] as const;
/** A reference a tool used: its kind, a label (device name, alert message) and the console path it links to. */
export const ZAssistantReference = z.object({
  kind: z.enum(ASSISTANT_REFERENCE_KINDS),
  label: z.string(),
  path: z.string(),
});
export type TAssistantReference = z.infer<typeof ZAssistantReference>;

/** The `tool` event and a stored tool use: the tool's name, a one-line summary of its arguments, what it referenced. */
export const ZAssistantToolUse = z.object({
  name: z.string(),
  summary: z.string(),
  references: z.array(ZAssistantReference),
});
export type TAssistantToolUse = z.infer<typeof ZAssistantToolUse>;

/** The commands the assistant may propose: the remote-control commands of the device detail (device-commands.ts). */
export const ASSISTANT_ACTION_COMMANDS = ['getDeviceInfo', 'sensorCommand'] as const;
/**
 * The `action` event: a device command the model proposed. The server never sends it; the console shows a button and,
 * once the person confirms, calls the remote-control route with `params` (sensorCommand's `{ key, action }`).
 */
export const ZAssistantAction = z.object({
  tangram_id: z.string(),
  device_name: z.string(),
  command: z.enum(ASSISTANT_ACTION_COMMANDS),
  params: z.object({ key: z.string(), action: z.string() }).nullable(),
});
export type TAssistantAction = z.infer<typeof ZAssistantAction>;

/** A message of a conversation; an assistant message carries the tools it used and the actions it proposed. */
export const ZAssistantMessage = z.object({
  id: z.number().int(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  tools: z.array(ZAssistantToolUse),
  actions: z.array(ZAssistantAction),
  created_at: z.number().int(),
});
export type TAssistantMessage = z.infer<typeof ZAssistantMessage>;

/** A conversation of the caller's account. */
export const ZAssistantConversation = z.object({
  id: z.number().int(),
  title: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type TAssistantConversation = z.infer<typeof ZAssistantConversation>;
/** GET assistant/conversations: the caller's conversations, most recently updated first. */
export const ZAssistantConversationList = zPage(ZAssistantConversation);
export type TAssistantConversationList = z.infer<typeof ZAssistantConversationList>;
/** GET assistant/conversations/{id}: the conversation with its messages, oldest first. */
export const ZAssistantConversationDetail = ZAssistantConversation.extend({ messages: z.array(ZAssistantMessage) });
export type TAssistantConversationDetail = z.infer<typeof ZAssistantConversationDetail>;

/** POST assistant/conversations: an optional title (else the first question names it). */
export const ZAssistantConversationInput = z.object({ title: z.string().trim().max(ASSISTANT_TITLE_MAX).optional() });
export type TAssistantConversationInput = z.infer<typeof ZAssistantConversationInput>;

/** POST assistant/conversations/{id}/messages: the question, and the language to answer in (the console's). */
export const ZAssistantMessageInput = z.object({
  content: z.string().trim().min(1).max(ASSISTANT_MESSAGE_MAX),
  language: z.enum(['zh-TW', 'en']).default('zh-TW'),
});
/** The languages an answer may be asked in (the console's). */
export type TAssistantLanguage = z.output<typeof ZAssistantMessageInput>['language'];
export type TAssistantMessageInput = z.input<typeof ZAssistantMessageInput>;

/** `{ id }` of a conversation route. */
export const ZAssistantConversationParams = z.object({ id: ZIdText });

/** The events of an answer's stream, in order: any `tool`/`action`/`delta`, then one `done` or one `error`. */
export const ZAssistantStreamEvent = z.discriminatedUnion('event', [
  z.object({ event: z.literal('delta'), data: z.object({ text: z.string() }) }),
  z.object({ event: z.literal('tool'), data: ZAssistantToolUse }),
  z.object({ event: z.literal('action'), data: ZAssistantAction }),
  z.object({
    event: z.literal('done'),
    data: z.object({ message_id: z.number().int(), tokens: z.number().int() }),
  }),
  z.object({ event: z.literal('error'), data: z.object({ code: z.string(), message: z.string() }) }),
]);
export type TAssistantStreamEvent = z.infer<typeof ZAssistantStreamEvent>;
