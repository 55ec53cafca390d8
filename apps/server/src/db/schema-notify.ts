/**
 * Notification tables (docs/decisions/notifications.md). Part of the one Drizzle schema: schema.ts re-exports this file.
 */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { SUBSCRIPTION_SCOPES, type TAlertLevel, type TNotifyChannel } from '@tessera/contracts';
import { accounts, tenants } from './schema-accounts.js';
import { devices, projects } from './schema-catalogue.js';

/**
 * An account's alert subscription for a project (`project_id` set) or one device (`device_id` set): the levels
 * that reach it and the channels. At most one per (account, project) and per (account, device); a device row
 * overrides the project row for that device. Deleted with the account, project or device.
 */
export const alertSubscriptions = pgTable(
  'alert_subscriptions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: SUBSCRIPTION_SCOPES }).notNull(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    levels: jsonb('levels').$type<TAlertLevel[]>().notNull(),
    channels: jsonb('channels').$type<TNotifyChannel[]>().notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [
    check(
      'alert_subscriptions_scope_ck',
      sql`(${t.scope} = 'project' and ${t.projectId} is not null and ${t.deviceId} is null) or (${t.scope} = 'device' and ${t.deviceId} is not null and ${t.projectId} is null)`,
    ),
    uniqueIndex('alert_subscriptions_project_uq').on(t.accountId, t.projectId).where(sql`project_id is not null`),
    uniqueIndex('alert_subscriptions_device_uq').on(t.accountId, t.deviceId).where(sql`device_id is not null`),
    index('alert_subscriptions_project_idx').on(t.projectId),
    index('alert_subscriptions_device_idx').on(t.deviceId),
  ],
);
