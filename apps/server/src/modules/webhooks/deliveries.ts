/**
 * The delivery log of a webhook (newest first, paged) and the test send: a `webhook.test` delivery queued at once
 * and sent by the worker like any other, so the log shows what the receiver answered.
 */
import { count, desc, eq } from 'drizzle-orm';
import type { TListQuery, TWebhookDelivery, TWebhookDeliveryPage } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { projects, webhookOutbox } from '../../db/schema.js';
import { ownedWebhook } from './webhook-service.js';

type TRow = typeof webhookOutbox.$inferSelect;

function presentDelivery(row: TRow): TWebhookDelivery {
  return {
    id: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    response_status: row.responseStatus,
    last_error: row.lastError,
    duration_ms: row.durationMs,
    created_at: row.createdAt,
    sent_at: row.sentAt,
    payload: row.payload,
  };
}

/** A page of webhook `id`'s deliveries, newest first. @throws AppError 404 when it is not the tenant's. */
export async function listDeliveries(
  db: Db,
  tenantId: number,
  projectId: number,
  id: number,
  query: Pick<TListQuery, 'page' | 'limit'>,
): Promise<TWebhookDeliveryPage> {
  await ownedWebhook(db, tenantId, projectId, id);
  const where = eq(webhookOutbox.webhookId, id);
  const [{ total }] = await db.select({ total: count() }).from(webhookOutbox).where(where);
  const rows = await db
    .select()
    .from(webhookOutbox)
    .where(where)
    .orderBy(desc(webhookOutbox.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return { data: rows.map(presentDelivery), page: query.page, limit: query.limit, total_items: total };
}

/**
 * Queues a `webhook.test` delivery (`{ event, occurred_at, project }`); answers it, pending. The caller nudges the
 * webhook worker. @throws AppError 404 when the webhook is not the tenant's.
 */
export async function queueTestDelivery(db: Db, tenantId: number, projectId: number, id: number): Promise<TWebhookDelivery> {
  await ownedWebhook(db, tenantId, projectId, id);
  const [project] = await db.select({ id: projects.id, name: projects.name }).from(projects).where(eq(projects.id, projectId));
  const payload = JSON.stringify({ event: 'webhook.test', occurred_at: Date.now(), project });
  const [row] = await db.insert(webhookOutbox).values({ webhookId: id, event: 'webhook.test', payload }).returning();
  return presentDelivery(row!);
}
