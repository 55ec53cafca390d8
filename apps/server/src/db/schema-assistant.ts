/**
 * The AI assistant (docs/decisions/ai.md "Assistant"): each account's conversations and their messages, and each
 * tenant's use of the AI endpoint per UTC day (model calls and tokens), which the daily limits read. Part of the one
 * Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import type { TAssistantAction, TAssistantToolUse } from '@tessera/contracts';
import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { accounts, tenants } from './schema-accounts.js';

/** A conversation of one account; deleting it deletes its messages. */
export const assistantConversations = pgTable(
  'assistant_conversations',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('assistant_conversations_account_idx').on(t.accountId, t.updatedAt)],
);

/** What an assistant message used: the tools it called (with their references) and the commands it proposed. */
export interface TAssistantToolData {
  tools: TAssistantToolUse[];
  actions: TAssistantAction[];
}

/** A message: the person's question (`user`) or the answer (`assistant`) with the tool data behind it. */
export const assistantMessages = pgTable(
  'assistant_messages',
  {
    id: serial('id').primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => assistantConversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    toolData: jsonb('tool_data').$type<TAssistantToolData>(),
    createdAt: createdAt(),
  },
  (t) => [index('assistant_messages_conversation_idx').on(t.conversationId, t.id)],
);

/** A tenant's use of the endpoint on one UTC day (`day_ms`: that day's midnight, epoch ms). */
export const assistantUsage = pgTable(
  'assistant_usage',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    dayMs: bigint('day_ms', { mode: 'number' }).notNull(),
    requests: integer('requests').notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.dayMs] })],
);
