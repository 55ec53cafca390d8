/**
 * LINE tables (docs/decisions/line.md). Part of the one Drizzle schema: schema.ts re-exports this file, and
 * the same migrations run on PGlite and PostgreSQL. Secrets are AES-256-GCM ciphertexts (core/secret-box.ts).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { LINE_PUSH_STATES, type TAlertLevel } from '@tessera/contracts';
import { createdAt, epochMs } from './columns.js';
import { accounts, tenants } from './schema-accounts.js';
import { projects } from './schema-catalogue.js';

/** A tenant's Line official account (Messaging API channel). `webhook_id` is the opaque id in its webhook URL. */
export const lineOfficialAccounts = pgTable(
  'line_official_accounts',
  {
    tenantId: integer('tenant_id')
      .primaryKey()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    channelId: text('channel_id').notNull(),
    botBasicId: text('bot_basic_id').notNull(),
    channelSecretEnc: text('channel_secret_enc').notNull(),
    accessTokenEnc: text('access_token_enc').notNull(),
    webhookId: text('webhook_id').notNull(),
    /** Where the console was reached when the account was saved: the base of the link URL the bot replies with. */
    consoleOrigin: text('console_origin').notNull(),
    createdAt: createdAt(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [uniqueIndex('line_official_accounts_webhook_uq').on(t.webhookId)],
);

/** LINE users who follow the bot and group chats (`group`, `room`) it is in; `active` false after unfollow/leave. */
export const lineContacts = pgTable(
  'line_contacts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['user', 'group', 'room'] }).notNull(),
    lineId: text('line_id').notNull(),
    name: text('name'),
    active: boolean('active').notNull(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [uniqueIndex('line_contacts_tenant_line_uq').on(t.tenantId, t.lineId)],
);

/** An account's link to its LINE user (one LINE user per account, one account per LINE user in a tenant). */
export const lineAccountLinks = pgTable(
  'line_account_links',
  {
    accountId: integer('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    lineUserId: text('line_user_id').notNull(),
    linkedAt: epochMs('linked_at').notNull(),
  },
  (t) => [uniqueIndex('line_account_links_user_uq').on(t.tenantId, t.lineUserId)],
);

/** One-time nonces of account links in progress, stored as SHA-256 digests. */
export const lineLinkNonces = pgTable('line_link_nonces', {
  nonceHash: text('nonce_hash').primaryKey(),
  tenantId: integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  accountId: integer('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  expiresAt: epochMs('expires_at').notNull(),
});

/** Webhook event ids already handled, so a redelivered event is handled once. */
export const lineWebhookEvents = pgTable(
  'line_webhook_events',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    receivedAt: epochMs('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventId] }), index('line_webhook_events_received_idx').on(t.receivedAt)],
);

/** A message-flow group: which projects' alerts of which levels go to its members. */
export const lineGroups = pgTable(
  'line_groups',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    levels: jsonb('levels').$type<TAlertLevel[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [uniqueIndex('line_groups_name_uq').on(t.tenantId, t.name)],
);

/** The projects whose alerts a group receives. */
export const lineGroupProjects = pgTable(
  'line_group_projects',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => lineGroups.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.projectId] }), index('line_group_projects_project_idx').on(t.projectId)],
);

/** A group's members: a linked account (`account_id`) or a LINE group chat (`contact_id`), exactly one of them. */
export const lineGroupMembers = pgTable(
  'line_group_members',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => lineGroups.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id').references(() => lineContacts.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('line_group_members_account_uq').on(t.groupId, t.accountId),
    uniqueIndex('line_group_members_contact_uq').on(t.groupId, t.contactId),
    check('line_group_members_one_target', sql`(account_id is null) <> (contact_id is null)`),
  ],
);

/**
 * Outgoing LINE pushes: one row per (text, target). A worker sends `pending` rows (modules/line/push-worker.ts) with
 * `retry_key` as X-Line-Retry-Key, so a retry after a lost answer is not delivered twice.
 */
export const lineOutbox = pgTable(
  'line_outbox',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** LINE user, group or room ID. */
    to: text('to').notNull(),
    text: text('text').notNull(),
    alertId: integer('alert_id'),
    /** The message-flow group that caused the push (null: straight to an account). */
    groupId: integer('group_id'),
    accountId: integer('account_id'),
    status: text('status', { enum: LINE_PUSH_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: epochMs('next_attempt_at').notNull().default(0),
    lastError: text('last_error'),
    sentAt: epochMs('sent_at'),
    retryKey: text('retry_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('line_outbox_due_idx').on(t.status, t.nextAttemptAt), index('line_outbox_alert_idx').on(t.alertId)],
);
