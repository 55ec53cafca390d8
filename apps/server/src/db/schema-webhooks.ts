/**
 * Outbound webhooks of a project (docs/decisions/webhooks.md): where to POST alert events, the signing secret
 * (sealed with the server's secret box), and the outbox of deliveries the shared outbox loop sends with retries — which
 * is also the delivery log. Part of the one Drizzle schema: schema.ts re-exports this file.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { WEBHOOK_DELIVERY_STATES } from '@tessera/contracts';
import { tenants } from './schema-accounts.js';
import { projects } from './schema-catalogue.js';
import { createdAt, epochMs, updatedAt } from './columns.js';

/** A project's webhook: the URL, the events it wants (`alert.opened`, `alert.cleared`) and its sealed secret. */
export const projectWebhooks = pgTable(
  'project_webhooks',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** The HMAC secret, sealed (core/secret-box.ts): the sender needs it in clear, so it is not hashed. */
    secretSealed: text('secret_sealed').notNull(),
    /** The last four characters, to show it masked without unsealing. */
    secretHint: text('secret_hint').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('project_webhooks_project_idx').on(t.projectId)],
);

/**
 * One delivery: the event, its JSON body, and how sending went. At most one row per (webhook, alert, event), so an
 * alert change seen twice (live publish and the catch-up sweep) is delivered once.
 */
export const webhookOutbox = pgTable(
  'webhook_outbox',
  {
    id: serial('id').primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => projectWebhooks.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    alertId: integer('alert_id'),
    payload: text('payload').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: epochMs('next_attempt_at').notNull().default(0),
    lastError: text('last_error'),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms'),
    sentAt: epochMs('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_outbox_webhook_idx').on(t.webhookId, t.id),
    uniqueIndex('webhook_outbox_alert_event_uq').on(t.webhookId, t.alertId, t.event).where(sql`alert_id is not null`),
  ],
);
