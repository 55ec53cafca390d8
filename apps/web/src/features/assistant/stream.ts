/**
 * Asking a question: `POST assistant/conversations/{id}/messages` read as it streams (fetch + ReadableStream; the
 * console's HTTP client reads whole bodies, so the stream is read here, the one other place that calls fetch). It sends
 * the session's access token like lib/http.ts; an expired token (UAE0004) is refreshed by one call through that
 * client (its policy refreshes and retries) before the question is sent again. A refusal before the stream opens (429
 * limits, 503 not configured, 404) throws an {@link HttpError} with the server's code.
 */
import { assistantPaths, ErrorCode, type TAssistantMessageInput, type TAssistantStreamEvent, ZErrorBody } from '@tessera/contracts';
import { http, HttpError } from '../../lib/http';
import { getLanguage, getSession } from '../../lib/session';
import { createSseParser } from './sse';

async function refusal(res: Response): Promise<HttpError> {
  const body = ZErrorBody.safeParse(await res.json().catch(() => null));
  return body.success
    ? new HttpError(res.status, body.data.code, body.data.message, res.statusText)
    : new HttpError(res.status, `HTTP_${res.status}`, res.statusText || `HTTP ${res.status}`, res.statusText);
}

/**
 * Streams the answer to `input` in conversation `conversationId`, calling `onEvent` with each event as it arrives;
 * resolves when the stream ends.
 * @throws HttpError for a refusal before the stream opens, or `OFFLINE` when the connection fails.
 */
export async function streamAnswer(
  conversationId: number,
  input: TAssistantMessageInput,
  onEvent: (event: TAssistantStreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const open = () =>
    fetch(assistantPaths.messages(conversationId), {
      method: 'POST',
      headers: {
        Accept: 'text/event-stream',
        'Accept-Language': getLanguage(),
        'Content-Type': 'application/json',
        Authorization: `Bearer ${getSession().token ?? ''}`,
      },
      body: JSON.stringify(input),
      signal,
    });
  let res: Response;
  try {
    res = await open();
    if (
      res.status === 401 &&
      (
        await res
          .clone()
          .json()
          .catch(() => null)
      )?.code === ErrorCode.TokenExpired
    ) {
      await http.get(assistantPaths.status);
      res = await open();
    }
  } catch (e) {
    if (signal?.aborted) return;
    throw new HttpError(0, 'OFFLINE', (e as Error).message);
  }
  if (!res.ok || !res.body) throw await refusal(res);
  const parser = createSseParser(onEvent);
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      parser.push(decoder.decode(chunk.value, { stream: true }));
  } catch (e) {
    if (!signal?.aborted) throw new HttpError(0, 'OFFLINE', (e as Error).message);
  }
}
