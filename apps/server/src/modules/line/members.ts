/**
 * Who a message-flow group reaches: its members with their LINE IDs. A linked account is deliverable while its LINE
 * user has not blocked the bot (unfollow); a LINE group chat while the bot is still in it (no leave event).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TLanguage, TLineGroupMember } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { accounts, lineAccountLinks, lineContacts, lineGroupMembers } from '../../db/schema.js';

/** A member of a group, as listed and as pushed to. `to` is the LINE ID (null: not linked). */
export interface TGroupMember extends TLineGroupMember {
  groupId: number;
  to: string | null;
  /** The reader's language: the account's for a linked account, zh-TW (the default, §4) for a group chat. */
  language: TLanguage;
}

const userContact = alias(lineContacts, 'user_contact');

/** The members of `groupIds`, accounts first (by email), then chats (by name). */
export async function readMembers(db: Db, groupIds: number[]): Promise<TGroupMember[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .select({
      groupId: lineGroupMembers.groupId,
      accountId: lineGroupMembers.accountId,
      contactId: lineGroupMembers.contactId,
      email: accounts.email,
      language: accounts.language,
      lineUserId: lineAccountLinks.lineUserId,
      userActive: userContact.active,
      chatKind: lineContacts.kind,
      chatLineId: lineContacts.lineId,
      chatName: lineContacts.name,
      chatActive: lineContacts.active,
    })
    .from(lineGroupMembers)
    .leftJoin(accounts, eq(accounts.id, lineGroupMembers.accountId))
    .leftJoin(lineAccountLinks, eq(lineAccountLinks.accountId, lineGroupMembers.accountId))
    .leftJoin(userContact, and(eq(userContact.tenantId, lineAccountLinks.tenantId), eq(userContact.lineId, lineAccountLinks.lineUserId)))
    .leftJoin(lineContacts, eq(lineContacts.id, lineGroupMembers.contactId))
    .where(inArray(lineGroupMembers.groupId, groupIds));
  const members = rows.map((r): TGroupMember => {
    if (r.accountId !== null) {
      const to = r.lineUserId ?? null;
      return {
        groupId: r.groupId,
        kind: 'account',
        id: r.accountId,
        label: r.email ?? String(r.accountId),
        to,
        language: r.language ?? 'zh-TW',
        deliverable: to !== null && r.userActive !== false,
      };
    }
    return {
      groupId: r.groupId,
      kind: 'chat',
      id: r.contactId ?? 0,
      label: chatLabel(r.chatName, r.chatKind, r.chatLineId),
      to: r.chatLineId,
      language: 'zh-TW',
      deliverable: r.chatActive === true,
    };
  });
  return members.sort((a, b) => (a.kind === b.kind ? a.label.localeCompare(b.label) : a.kind === 'account' ? -1 : 1));
}

/** How a LINE group chat is shown: its name, else its kind and the end of its ID. */
export function chatLabel(name: string | null, kind: string | null, lineId: string | null): string {
  return name ?? `${kind === 'room' ? 'room' : 'group'} …${(lineId ?? '').slice(-6)}`;
}
