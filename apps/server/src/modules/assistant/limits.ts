/**
 * Per-tenant daily limits of the assistant (docs/decisions/ai.md "Assistant: limits"): questions and tokens per UTC
 * day, from AI_TENANT_DAILY_REQUESTS and AI_TENANT_DAILY_TOKENS. A question takes one request before the endpoint is
 * called (an atomic conditional upsert, so concurrent questions cannot pass the limit together); the tokens the
 * endpoint reports in `usage` are added after each model call, so one answer may end a little over the token limit.
 */
import { AssistantErrorCode, type TAssistantStatus } from '@tessera/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { TConfig } from '../../core/config.js';
import { AppError } from '../../core/errors.js';
import { rowsOf, type Db } from '../../db/client.js';
import { assistantUsage } from '../../db/schema.js';

const DAY_MS = 86_400_000;

/** The UTC midnight starting the day of `nowMs`, epoch ms. */
export const utcDayStart = (nowMs: number) => Math.floor(nowMs / DAY_MS) * DAY_MS;

async function usageOf(db: Db, tenantId: number, dayMs: number): Promise<{ requests: number; tokens: number }> {
  const [row] = await db
    .select({ requests: assistantUsage.requests, tokens: assistantUsage.tokens })
    .from(assistantUsage)
    .where(and(eq(assistantUsage.tenantId, tenantId), eq(assistantUsage.dayMs, dayMs)));
  return { requests: row?.requests ?? 0, tokens: Number(row?.tokens ?? 0) };
}

/** GET assistant/status: configured or not (the model's name, never the key) and what is left of the tenant's day. */
export async function assistantStatus(db: Db, config: TConfig, tenantId: number, nowMs: number): Promise<TAssistantStatus> {
  const day = utcDayStart(nowMs);
  const used = await usageOf(db, tenantId, day);
  const { ai } = config;
  const configured = Boolean(ai.baseUrl && ai.model);
  return {
    configured,
    model: configured ? (ai.model ?? null) : null,
    limits: {
      requests_per_day: ai.dailyRequests,
      requests_left: Math.max(0, ai.dailyRequests - used.requests),
      tokens_per_day: ai.dailyTokens,
      tokens_left: Math.max(0, ai.dailyTokens - used.tokens),
      resets_at: day + DAY_MS,
    },
  };
}

/**
 * Takes one of the tenant's requests of today.
 * @throws AppError 429 ASSISTANT_TOKEN_LIMIT when today's tokens are used up, 429 ASSISTANT_REQUEST_LIMIT when today's
 * requests are (both with Retry-After: the seconds to the next UTC midnight).
 */
export async function takeRequest(db: Db, config: TConfig, tenantId: number, nowMs: number): Promise<void> {
  const day = utcDayStart(nowMs);
  const retryAfterS = Math.ceil((day + DAY_MS - nowMs) / 1000);
  const { dailyRequests, dailyTokens } = config.ai;
  const used = await usageOf(db, tenantId, day);
  if (used.tokens >= dailyTokens) {
    throw new AppError(
      429,
      AssistantErrorCode.TokenLimit,
      `the assistant's ${dailyTokens} tokens of today are used up`,
      undefined,
      retryAfterS,
    );
  }
  const taken = rowsOf<{ requests: number }>(
    await db.execute(sql`insert into ${assistantUsage} (tenant_id, day_ms, requests, tokens)
      select ${tenantId}, ${day}, 1, 0 where ${dailyRequests} > 0
      on conflict (tenant_id, day_ms) do update set requests = ${assistantUsage.requests} + 1
        where ${assistantUsage.requests} < ${dailyRequests}
      returning requests`),
  );
  if (taken.length === 0) {
    throw new AppError(
      429,
      AssistantErrorCode.RequestLimit,
      `the assistant's ${dailyRequests} questions of today are used up`,
      undefined,
      retryAfterS,
    );
  }
}

/** Adds `tokens` (the endpoint's `usage`) to the tenant's day. */
export async function addTokens(db: Db, tenantId: number, nowMs: number, tokens: number): Promise<void> {
  if (tokens <= 0) return;
  await db
    .insert(assistantUsage)
    .values({ tenantId, dayMs: utcDayStart(nowMs), requests: 0, tokens })
    .onConflictDoUpdate({
      target: [assistantUsage.tenantId, assistantUsage.dayMs],
      set: { tokens: sql`${assistantUsage.tokens} + ${tokens}` },
    });
}
