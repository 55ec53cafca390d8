/**
 * The LINE push worker (docs/decisions/line.md "push outbox"): sends pending `line_outbox` rows through the shared
 * outbox loop (core/outbox-loop.ts) with the channel's access token and the row's X-Line-Retry-Key. Outcomes: sent
 * (200, or 409 = LINE already accepted this retry key); `quota_exceeded` without calling push when the month's quota
 * is used up, or on LINE's 429 "monthly limit"; `failed` at once for LINE's other 4xx (a bad token or target does not
 * heal by waiting) and for a tenant without a channel; retried with backoff for 5xx, rate limits and network errors.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { LINE_MESSAGES } from '@tessera/contracts';
import { claimDue, failedAttempt, startOutboxLoop, type TOutboxWorker } from '../outbox/outbox-loop.js';
import { lineOutbox } from '../../db/schema.js';
import { isMonthlyLimit, LineApiError } from './client.js';
import { loadChannel, type TLineChannel } from './official-account.js';
import type { TLineRuntime } from './runtime.js';

interface TClaimedPush {
  id: number;
  tenant_id: number;
  to: string;
  text: string;
  attempts: number;
  retry_key: string;
}

const COLUMNS = 'id, tenant_id, "to", text, attempts, retry_key';

type TChannels = Map<number, TLineChannel | null>;

async function channelOf(rt: TLineRuntime, channels: TChannels, tenantId: number): Promise<TLineChannel | null> {
  if (!channels.has(tenantId)) channels.set(tenantId, await loadChannel(rt.db, rt.box, tenantId));
  return channels.get(tenantId) ?? null;
}

async function finish(rt: TLineRuntime, id: number, set: Partial<typeof lineOutbox.$inferInsert>): Promise<void> {
  await rt.db.update(lineOutbox).set(set).where(eq(lineOutbox.id, id));
}

/** Sends one claimed row and records the outcome (a failure to record it is left to the loop, which logs it). */
async function sendOne(rt: TLineRuntime, channels: TChannels, row: TClaimedPush): Promise<void> {
  const log = rt.log.child({ pushId: row.id, tenantId: row.tenant_id });
  try {
    const channel = await channelOf(rt, channels, row.tenant_id);
    if (!channel) return await finish(rt, row.id, { status: 'failed', attempts: row.attempts + 1, lastError: 'no Line official account' });
    const client = rt.client(channel);
    if (!(await rt.quota.allows(channel, client))) {
      log.warn('LINE push held: monthly quota used up');
      return await finish(rt, row.id, { status: 'quota_exceeded', lastError: LINE_MESSAGES.quotaExceeded });
    }
    try {
      await client.push(row.to, row.text, row.retry_key);
    } catch (err) {
      if (!(err instanceof LineApiError && err.status === 409)) throw err;
    }
    rt.quota.consumed(channel);
    await finish(rt, row.id, { status: 'sent', attempts: row.attempts + 1, sentAt: Date.now(), lastError: null });
    log.info('LINE push sent');
  } catch (err) {
    if (isMonthlyLimit(err)) {
      const channel = channels.get(row.tenant_id);
      if (channel) rt.quota.exhausted(channel);
      log.warn('LINE push refused: monthly limit');
      return await finish(rt, row.id, { status: 'quota_exceeded', attempts: row.attempts + 1, lastError: LINE_MESSAGES.quotaExceeded });
    }
    if (err instanceof LineApiError && err.status >= 400 && err.status < 500 && err.status !== 429) {
      log.warn({ status: err.status, err: err.message }, 'LINE push refused');
      return await finish(rt, row.id, { status: 'failed', attempts: row.attempts + 1, lastError: err.message.slice(0, 500) });
    }
    const update = failedAttempt(row.attempts, err);
    log.warn({ attempts: update.attempts, failed: update.status === 'failed', err: (err as Error).message }, 'LINE push not sent');
    await finish(rt, row.id, update).catch((e) => log.error({ err: e }, 'LINE push outcome not recorded'));
  }
}

/** Sends the rows `ids`, queued `leased` by the caller (queue.ts), now; rows not sent stay for the worker. */
export async function deliverNow(rt: TLineRuntime, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const channels: TChannels = new Map();
  const rows = await rt.db
    .select({
      id: lineOutbox.id,
      tenant_id: lineOutbox.tenantId,
      to: lineOutbox.to,
      text: lineOutbox.text,
      attempts: lineOutbox.attempts,
      retry_key: lineOutbox.retryKey,
    })
    .from(lineOutbox)
    .where(and(inArray(lineOutbox.id, ids), eq(lineOutbox.status, 'pending')))
    .orderBy(lineOutbox.id);
  for (const row of rows) await sendOne(rt, channels, row);
}

/** Starts the worker (app/outbox.ts); a nudge runs a pass at once. */
export function startLinePushWorker(rt: TLineRuntime): TOutboxWorker {
  return startOutboxLoop({
    log: rt.log,
    name: 'line',
    async pass() {
      const channels: TChannels = new Map();
      for (const row of await claimDue<TClaimedPush>(rt.db, 'line_outbox', COLUMNS)) await sendOne(rt, channels, row);
    },
  });
}
