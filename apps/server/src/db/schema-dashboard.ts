/**
 * Dashboards (docs/dashboard.md): each account's pages and their widgets. Part of the one Drizzle schema (schema.ts
 * re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import type { TWidgetLayout, TWidgetType } from '@tessera/contracts';
import { index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { accounts, tenants } from './schema-accounts.js';

/** A dashboard page of one account; `position` orders the pages (1 first). */
export const dashboardPages = pgTable(
  'dashboard_pages',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('dashboard_pages_account_idx').on(t.accountId, t.position)],
);

/** A widget on a page: its type, title, parameter (the JSON string of spec §3, checked per type) and grid place. */
export const dashboardWidgets = pgTable(
  'dashboard_widgets',
  {
    id: serial('id').primaryKey(),
    pageId: integer('page_id')
      .notNull()
      .references(() => dashboardPages.id, { onDelete: 'cascade' }),
    type: text('type').$type<TWidgetType>().notNull(),
    title: text('title').notNull().default(''),
    parameter: text('parameter').notNull(),
    layout: jsonb('layout').$type<TWidgetLayout>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('dashboard_widgets_page_idx').on(t.pageId)],
);
