/** GET line/chats: the LINE group chats and multi-person chats the tenant's bot has been in (members to choose). */
import { and, asc, eq, ne } from 'drizzle-orm';
import type { TLineChat } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { lineContacts } from '../../db/schema.js';

/** The tenant's chats, present ones first, by name. */
export async function listChats(db: Db, tenantId: number): Promise<{ data: TLineChat[] }> {
  const rows = await db
    .select()
    .from(lineContacts)
    .where(and(eq(lineContacts.tenantId, tenantId), ne(lineContacts.kind, 'user')))
    .orderBy(asc(lineContacts.name), asc(lineContacts.id));
  const data = rows.map((r) => ({ id: r.id, kind: r.kind as 'group' | 'room', name: r.name, joined: r.active, updated_at: r.updatedAt }));
  return { data: data.sort((a, b) => Number(b.joined) - Number(a.joined)) };
}
