/**
 * A streaming client of an OpenAI-compatible chat-completions endpoint (docs/decisions/ai.md "Assistant"; the same
 * wire format as OpenAI, Ollama's `/v1`, vLLM and LiteLLM): `POST {AI_BASE_URL}/chat/completions` with `stream: true`,
 * read as Server-Sent Events whose `data:` lines carry `chat.completion.chunk` objects until `data: [DONE]`. Text
 * deltas are handed on as they arrive; tool-call fragments are joined by their `index`.
 */
import { AssistantErrorCode } from '@tessera/contracts';
import { AppError } from '../../core/errors.js';

/** A function tool as the endpoint takes it: a name, a description and JSON Schema parameters. */
export interface TChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A tool call of the model: its id (echoed in the tool message), the function's name and its JSON arguments text. */
export interface TChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A message of the chat: system prompt, the person, the model (text and/or tool calls) or a tool's result. */
export type TChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: TChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The endpoint to call: base URL (no trailing slash), bearer key (optional: a local Ollama needs none), model. */
export interface TChatEndpoint {
  baseUrl: string;
  apiKey?: string;
  model: string;
}

/** One model call's outcome: all its text, its tool calls (empty for a final answer), tokens from `usage` (0 if none). */
export interface TChatTurn {
  text: string;
  toolCalls: TChatToolCall[];
  tokens: number;
}

/** A model call gives up after this long, in milliseconds (a slow local model still streams within it). */
export const CHAT_TIMEOUT_MS = 120_000;

const upstream = (message: string) => new AppError(502, AssistantErrorCode.Upstream, message);

interface TChunk {
  choices?: {
    delta?: { content?: string | null; tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[] };
  }[];
  usage?: { total_tokens?: number; prompt_tokens?: number; completion_tokens?: number } | null;
}

/** Adds one chunk to `turn`, calling `onText` with its text; tool-call fragments are appended by index. */
function applyChunk(chunk: TChunk, turn: TChatTurn, onText: (text: string) => void): void {
  const usage = chunk.usage;
  if (usage) turn.tokens = usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
  const delta = chunk.choices?.[0]?.delta;
  if (!delta) return;
  if (delta.content) {
    turn.text += delta.content;
    onText(delta.content);
  }
  for (const part of delta.tool_calls ?? []) {
    const index = part.index ?? turn.toolCalls.length;
    turn.toolCalls[index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
    const call = turn.toolCalls[index];
    if (part.id) call.id = part.id;
    if (part.function?.name) call.function.name += part.function.name;
    if (part.function?.arguments) call.function.arguments += part.function.arguments;
  }
}

/**
 * Calls the endpoint once with `messages` and `tools`, streaming; `onText` receives each text delta as it arrives.
 * @throws AppError 502 ASSISTANT_UPSTREAM_ERROR when the endpoint cannot be reached, answers non-2xx, sends a chunk
 * that is not JSON, or ends without `[DONE]`; an abort through `signal` rejects with the abort reason.
 */
export async function streamChat(
  endpoint: TChatEndpoint,
  messages: readonly TChatMessage[],
  tools: readonly TChatTool[],
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<TChatTurn> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const body = {
    model: endpoint.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(tools.length ? { tools } : {}),
  };
  const timeout = AbortSignal.timeout(CHAT_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(`${endpoint.baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw upstream(`the AI endpoint could not be reached: ${(err as Error).message}`);
  }
  if (!res.ok || !res.body) {
    const detail = (await res.text().catch(() => '')).slice(0, 200);
    throw upstream(`the AI endpoint answered ${res.status}${detail ? `: ${detail}` : ''}`);
  }
  const turn: TChatTurn = { text: '', toolCalls: [], tokens: 0 };
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  try {
    const reader = res.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += decoder.decode(read.value, { stream: true });
      let end = buffer.indexOf('\n');
      while (end >= 0 && !done) {
        const line = buffer.slice(0, end).replace(/\r$/, '');
        buffer = buffer.slice(end + 1);
        end = buffer.indexOf('\n');
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') done = true;
        else applyChunk(parseChunk(data), turn, onText);
      }
      if (done) {
        await reader.cancel();
        break;
      }
    }
  } catch (err) {
    if (signal?.aborted || err instanceof AppError) throw err;
    throw upstream(`the AI endpoint's stream broke: ${(err as Error).message}`);
  }
  if (!done) throw upstream('the AI endpoint ended its stream without [DONE]');
  turn.toolCalls = turn.toolCalls.filter(Boolean);
  return turn;
}

function parseChunk(data: string): TChunk {
  try {
    return JSON.parse(data) as TChunk;
  } catch {
    throw upstream('the AI endpoint sent a chunk that is not JSON');
  }
}
