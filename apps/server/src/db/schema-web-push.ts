/**
 * Web Push to the console in a browser (docs/decisions/device-control.md "Push switch"; RFC 8030 push, RFC 8291
 * message encryption, RFC 8292 VAPID): the browsers' push subscriptions and the outbox of messages to them. Part of
 * the one Drizzle schema: schema.ts re-exports this file.
 */
import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { WEB_PUSH_STATES } from '@tessera/contracts';
import { accounts } from './schema-accounts.js';
import { createdAt, epochMs } from './columns.js';

/**
 * One browser's push subscription for an account (what `PushManager.subscribe` answered): the push service
 * `endpoint` (unique: a browser profile has one per origin) and its P-256 public key and auth secret (base64url).
 */
export const webPushSubscriptions = pgTable(
  'web_push_subscriptions',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('web_push_subscriptions_endpoint_uq').on(t.endpoint), index('web_push_subscriptions_account_idx').on(t.accountId)],
);

/** Messages to push subscriptions: one row per subscription and alert, sent by the shared outbox loop with retries. */
export const webPushOutbox = pgTable(
  'web_push_outbox',
  {
    id: serial('id').primaryKey(),
    /** Null once the push service said the subscription is gone (404/410) and it was deleted. */
    subscriptionId: integer('subscription_id').references(() => webPushSubscriptions.id, { onDelete: 'set null' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    alertId: integer('alert_id'),
    /** The notification as JSON `{ title, body, url, tag }` (the service worker shows it). */
    payload: text('payload').notNull(),
    status: text('status', { enum: WEB_PUSH_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: epochMs('next_attempt_at').notNull().default(0),
    lastError: text('last_error'),
    sentAt: epochMs('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [index('web_push_outbox_due_idx').on(t.status, t.nextAttemptAt), index('web_push_outbox_alert_idx').on(t.alertId)],
);
