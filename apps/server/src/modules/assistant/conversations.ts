/**
 * An account's assistant conversations (docs/decisions/ai.md "Assistant: conversations"): list, create, read with
 * messages, delete. A conversation belongs to one account: another account's — of the same tenant or not — is "not
 * found", like a missing one.
 */
import {
  ASSISTANT_TITLE_MAX,
  type TAssistantConversation,
  type TAssistantConversationDetail,
  type TAssistantConversationList,
  type TListQuery,
} from '@tessera/contracts';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { pageOf } from '../../db/paging.js';
import { searchAny } from '../../db/sql-helpers.js';
import { assistantConversations, assistantMessages } from '../../db/schema.js';

type TConversationRow = typeof assistantConversations.$inferSelect;

const present = (row: TConversationRow): TAssistantConversation => ({
  id: row.id,
  title: row.title,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

const ownedBy = (principal: TPrincipal) =>
  and(eq(assistantConversations.tenantId, principal.tenantId), eq(assistantConversations.accountId, principal.accountId));

/** A title from a question: its first line, cut to ASSISTANT_TITLE_MAX characters. */
export const titleOf = (text: string) => {
  const line = text.trim().split('\n')[0];
  return line.length > ASSISTANT_TITLE_MAX ? `${line.slice(0, ASSISTANT_TITLE_MAX - 1)}…` : line;
};

/** The caller's conversation `id`. @throws AppError 404 when missing or another account's. */
export async function ownConversation(db: Db, principal: TPrincipal, id: number): Promise<TConversationRow> {
  const [row] = await db
    .select()
    .from(assistantConversations)
    .where(and(ownedBy(principal), eq(assistantConversations.id, id)));
  if (!row) throw notFound('conversation');
  return row;
}

/** GET conversations: a page of the caller's conversations, most recently updated first; `q` searches titles. */
export async function listConversations(db: Db, principal: TPrincipal, query: TListQuery): Promise<TAssistantConversationList> {
  const where = and(ownedBy(principal), searchAny(query.q, [assistantConversations.title]));
  return pageOf(
    query,
    db.select({ total: count() }).from(assistantConversations).where(where),
    (limit, offset) =>
      db
        .select()
        .from(assistantConversations)
        .where(where)
        .orderBy(desc(assistantConversations.updatedAt), desc(assistantConversations.id))
        .limit(limit)
        .offset(offset),
    present,
  );
}

/** POST conversations: a new conversation of the caller (title empty until the first question names it). */
export async function createConversation(db: Db, principal: TPrincipal, title = ''): Promise<TAssistantConversation> {
  const [row] = await db
    .insert(assistantConversations)
    .values({ tenantId: principal.tenantId, accountId: principal.accountId, title })
    .returning();
  return present(row);
}

/** GET conversations/{id}: the conversation and its messages, oldest first. @throws AppError 404 (see ownConversation). */
export async function getConversation(db: Db, principal: TPrincipal, id: number): Promise<TAssistantConversationDetail> {
  const row = await ownConversation(db, principal, id);
  const messages = await db
    .select()
    .from(assistantMessages)
    .where(eq(assistantMessages.conversationId, id))
    .orderBy(asc(assistantMessages.id));
  return {
    ...present(row),
    messages: messages.map((m) => ({
      id: m.id,
      role: m.role,
      content: m.content,
      tools: m.toolData?.tools ?? [],
      actions: m.toolData?.actions ?? [],
      created_at: m.createdAt,
    })),
  };
}

/** DELETE conversations/{id}: the conversation and its messages. @throws AppError 404 (see ownConversation). */
export async function deleteConversation(db: Db, principal: TPrincipal, id: number): Promise<void> {
  await ownConversation(db, principal, id);
  await db.delete(assistantConversations).where(and(ownedBy(principal), eq(assistantConversations.id, id)));
}
