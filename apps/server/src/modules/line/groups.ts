/**
 * Creating, changing and deleting message-flow groups (spec §3 "message flow"; §7 `/notification/v1` message-flow;
 * §8 "Line Notify connection limit reached"). A group names the projects whose alerts it receives, the alert levels,
 * and its members: accounts with a LINE link and LINE group chats the bot is in (docs/decisions/line.md "groups").
 */
import { and, count, eq, inArray, ne } from 'drizzle-orm';
import {
  LINE_GROUP_MEMBERS_MAX,
  LINE_GROUPS_MAX,
  LINE_MESSAGES,
  LineErrorCode,
  type TLineGroup,
  type TLineGroupInput,
} from '@tessera/contracts';
import { badRequest, conflict } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { lineAccountLinks, lineContacts, lineGroupMembers, lineGroupProjects, lineGroups, projects } from '../../db/schema.js';
import { getGroup, ownedGroup } from './groups-read.js';

const unique = (ids: number[]) => [...new Set(ids)];

/** Checks the input against the tenant's data. @throws AppError 409 connection limit or name taken; 400 foreign ids. */
async function checkInput(db: Db, tenantId: number, input: TLineGroupInput, groupId: number | null): Promise<void> {
  const accountIds = unique(input.account_ids);
  const chatIds = unique(input.chat_ids);
  if (accountIds.length + chatIds.length > LINE_GROUP_MEMBERS_MAX)
    throw conflict(LINE_MESSAGES.connectionLimit, LineErrorCode.ConnectionLimit);
  const [taken] = await db
    .select({ id: lineGroups.id })
    .from(lineGroups)
    .where(and(eq(lineGroups.tenantId, tenantId), eq(lineGroups.name, input.name), ...(groupId ? [ne(lineGroups.id, groupId)] : [])));
  if (taken) throw conflict('another group has this name', LineErrorCode.NameTaken);
  const projectIds = unique(input.project_ids);
  if (projectIds.length) {
    const found = await db
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.tenantId, tenantId), inArray(projects.id, projectIds)));
    if (found.length !== projectIds.length) throw badRequest('a project is not one of yours');
  }
  if (accountIds.length) {
    const linked = await db
      .select({ id: lineAccountLinks.accountId })
      .from(lineAccountLinks)
      .where(and(eq(lineAccountLinks.tenantId, tenantId), inArray(lineAccountLinks.accountId, accountIds)));
    if (linked.length !== accountIds.length) throw badRequest('an account has no LINE link');
  }
  if (chatIds.length) {
    const chats = await db
      .select({ id: lineContacts.id })
      .from(lineContacts)
      .where(and(eq(lineContacts.tenantId, tenantId), inArray(lineContacts.id, chatIds), ne(lineContacts.kind, 'user')));
    if (chats.length !== chatIds.length) throw badRequest('a LINE group chat is unknown');
  }
}

async function writeLinks(tx: Db, groupId: number, input: TLineGroupInput): Promise<void> {
  await tx.delete(lineGroupProjects).where(eq(lineGroupProjects.groupId, groupId));
  await tx.delete(lineGroupMembers).where(eq(lineGroupMembers.groupId, groupId));
  const projectIds = unique(input.project_ids);
  if (projectIds.length) await tx.insert(lineGroupProjects).values(projectIds.map((projectId) => ({ groupId, projectId })));
  const members = [
    ...unique(input.account_ids).map((accountId) => ({ groupId, accountId })),
    ...unique(input.chat_ids).map((contactId) => ({ groupId, contactId })),
  ];
  if (members.length) await tx.insert(lineGroupMembers).values(members);
}

/** POST message-flow. @throws AppError 409 when the tenant has LINE_GROUPS_MAX groups, and as {@link checkInput}. */
export async function createGroup(db: Db, tenantId: number, input: TLineGroupInput): Promise<TLineGroup> {
  const [{ n }] = await db.select({ n: count() }).from(lineGroups).where(eq(lineGroups.tenantId, tenantId));
  if (n >= LINE_GROUPS_MAX) throw conflict(LINE_MESSAGES.connectionLimit, LineErrorCode.ConnectionLimit);
  await checkInput(db, tenantId, input, null);
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(lineGroups)
      .values({ tenantId, name: input.name, levels: [...new Set(input.levels)], updatedAt: Date.now() })
      .returning({ id: lineGroups.id });
    await writeLinks(tx, row.id, input);
    return row.id;
  });
  return getGroup(db, tenantId, id);
}

/** PUT message-flow/{id}: replaces the group. @throws AppError 404 not the tenant's, and as {@link checkInput}. */
export async function updateGroup(db: Db, tenantId: number, id: number, input: TLineGroupInput): Promise<TLineGroup> {
  await ownedGroup(db, tenantId, id);
  await checkInput(db, tenantId, input, id);
  await db.transaction(async (tx) => {
    await tx
      .update(lineGroups)
      .set({ name: input.name, levels: [...new Set(input.levels)], updatedAt: Date.now() })
      .where(eq(lineGroups.id, id));
    await writeLinks(tx, id, input);
  });
  return getGroup(db, tenantId, id);
}

/** DELETE message-flow/{id}. @throws AppError 404 when not the tenant's. */
export async function deleteGroup(db: Db, tenantId: number, id: number): Promise<void> {
  await ownedGroup(db, tenantId, id);
  await db.delete(lineGroups).where(eq(lineGroups.id, id));
}
