/**
 * A small typed client of the LINE Messaging API (https://developers.line.biz/en/reference/messaging-api/) over
 * `fetch`, pointed at LINE_API_BASE: push (with X-Line-Retry-Key), reply, monthly quota and consumption, link
 * tokens, group summary and user profile. Why not `@line/bot-sdk`: docs/decisions/line.md.
 */
import { z } from 'zod';

/** How long one call to LINE may take, in milliseconds. */
export const LINE_CALL_TIMEOUT_MS = 10_000;

/** LINE answered with an HTTP error. `message` is `LINE <status>: <LINE's message>` (its `{ message }` body, when sent). */
export class LineApiError extends Error {
  constructor(
    readonly status: number,
    readonly lineMessage: string,
    readonly body: unknown,
  ) {
    super(`LINE ${status}: ${lineMessage}`);
    this.name = 'LineApiError';
  }
}

/** True for LINE's 429 "You have reached your monthly limit." (as opposed to a rate limit, which is retried). */
export function isMonthlyLimit(err: unknown): boolean {
  return err instanceof LineApiError && err.status === 429 && /monthly limit/i.test(err.lineMessage);
}

const ZLineErrorBody = z.object({ message: z.string() });
const ZQuota = z.object({ type: z.enum(['none', 'limited']), value: z.number().optional() });
const ZConsumption = z.object({ totalUsage: z.number() });
const ZLinkToken = z.object({ linkToken: z.string() });
const ZGroupSummary = z.object({ groupName: z.string() });
const ZProfile = z.object({ displayName: z.string() });

/** The channel's monthly push quota: `limit` null when unlimited. */
export interface TLineQuota {
  limit: number | null;
  used: number;
}

/** The calls Tessera makes, with one channel access token. */
export interface TLineClient {
  /** POST /v2/bot/message/push: one text to a user, group or room. */
  push(to: string, text: string, retryKey: string): Promise<void>;
  /** POST /v2/bot/message/reply: texts answering a webhook event (free of quota). */
  reply(replyToken: string, texts: string[]): Promise<void>;
  /** GET /v2/bot/message/quota and /quota/consumption. */
  quota(): Promise<TLineQuota>;
  /** POST /v2/bot/user/{userId}/linkToken: a link token, valid 10 minutes, usable once. */
  issueLinkToken(userId: string): Promise<string>;
  /** GET /v2/bot/group/{groupId}/summary: the group chat's name. */
  groupName(groupId: string): Promise<string>;
  /** GET /v2/bot/profile/{userId}: the user's display name. */
  displayName(userId: string): Promise<string>;
}

/** A client of the API at `baseUrl` (LINE_API_BASE) with `accessToken` as Bearer. */
export function createLineClient(baseUrl: string, accessToken: string): TLineClient {
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T> | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${accessToken}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(LINE_CALL_TIMEOUT_MS),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = text;
    }
    if (!res.ok) {
      const parsed = ZLineErrorBody.safeParse(json);
      throw new LineApiError(res.status, parsed.success ? parsed.data.message : `HTTP ${res.status}`, json);
    }
    if (!schema) return undefined as T;
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new LineApiError(res.status, `unexpected answer from LINE to ${method} ${path}`, json);
    return parsed.data;
  }

  return {
    push: (to, text, retryKey) =>
      call('POST', '/v2/bot/message/push', null, { to, messages: [{ type: 'text', text }] }, { 'X-Line-Retry-Key': retryKey }),
    reply: (replyToken, texts) =>
      call('POST', '/v2/bot/message/reply', null, { replyToken, messages: texts.map((text) => ({ type: 'text', text })) }),
    async quota() {
      const [quota, consumption] = await Promise.all([
        call('GET', '/v2/bot/message/quota', ZQuota),
        call('GET', '/v2/bot/message/quota/consumption', ZConsumption),
      ]);
      return { limit: quota.type === 'limited' ? (quota.value ?? 0) : null, used: consumption.totalUsage };
    },
    issueLinkToken: async (userId) => (await call('POST', `/v2/bot/user/${encodeURIComponent(userId)}/linkToken`, ZLinkToken)).linkToken,
    groupName: async (groupId) => (await call('GET', `/v2/bot/group/${encodeURIComponent(groupId)}/summary`, ZGroupSummary)).groupName,
    displayName: async (userId) => (await call('GET', `/v2/bot/profile/${encodeURIComponent(userId)}`, ZProfile)).displayName,
  };
}
