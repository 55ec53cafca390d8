/**
 * What each webhook event does (docs/decisions/line.md "webhook"): follow/unfollow keep the LINE users who talk to
 * the bot, join/leave the group chats it is in (push targets); a text matching LINE_LINK_KEYWORDS in a 1:1 chat
 * answers with the account-link URL; `accountLink` completes a link. Other events are ignored.
 */
import { LINE_LINK_KEYWORDS, LINE_LINK_PAGE } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { lineContacts } from '../../db/schema.js';
import { completeAccountLink } from './account-link.js';
import type { TLineClient } from './client.js';
import type { TLineChannel } from './official-account.js';
import type { TLineRuntime } from './runtime.js';
import { BOT_TEXTS, linkedText } from './texts.js';
import { chatIdOf, type TLineEvent } from './webhook-events.js';

/** Records a contact as present (`active`) or gone; `name` replaces the stored one only when given. */
async function upsertContact(
  db: Db,
  tenantId: number,
  kind: 'user' | 'group' | 'room',
  lineId: string,
  active: boolean,
  name?: string | null,
): Promise<void> {
  const now = Date.now();
  await db
    .insert(lineContacts)
    .values({ tenantId, kind, lineId, active, name: name ?? null, updatedAt: now })
    .onConflictDoUpdate({
      target: [lineContacts.tenantId, lineContacts.lineId],
      set: { active, updatedAt: now, ...(name ? { name } : {}) },
    });
}

const isLinkKeyword = (text: string | undefined) => (LINE_LINK_KEYWORDS as readonly string[]).includes((text ?? '').trim().toLowerCase());

/** Handles one (first-time) event of `channel`. @throws on a LINE or database failure (the event may be redelivered). */
export async function handleLineEvent(rt: TLineRuntime, channel: TLineChannel, event: TLineEvent): Promise<void> {
  const { db } = rt;
  const client = rt.client(channel);
  const source = event.source;
  const chatId = chatIdOf(source);
  const reply = async (text: string) => {
    if (event.replyToken && event.mode !== 'standby') await client.reply(event.replyToken, [text]);
  };
  switch (event.type) {
    case 'follow':
    case 'unfollow': {
      if (source?.type !== 'user' || !chatId) return;
      const following = event.type === 'follow';
      const name = following ? await client.displayName(chatId).catch(() => null) : null;
      await upsertContact(db, channel.tenantId, 'user', chatId, following, name);
      if (following) await reply(BOT_TEXTS.welcome);
      return;
    }
    case 'join':
    case 'leave': {
      if (!source || source.type === 'user' || !chatId) return;
      const joined = event.type === 'join';
      const name = joined && source.type === 'group' ? await client.groupName(chatId).catch(() => null) : null;
      await upsertContact(db, channel.tenantId, source.type, chatId, joined, name);
      return;
    }
    case 'message':
      return onMessage(rt, channel, client, event, reply);
    case 'accountLink':
      return onAccountLink(rt, channel, event, reply);
  }
}

async function onMessage(
  rt: TLineRuntime,
  channel: TLineChannel,
  client: TLineClient,
  event: TLineEvent,
  reply: (text: string) => Promise<void>,
): Promise<void> {
  const source = event.source;
  const chatId = chatIdOf(source);
  if (!source || !chatId) return;
  // A message from a group chat the bot was added to before Tessera knew the channel still makes it a target.
  if (source.type !== 'user') return upsertContact(rt.db, channel.tenantId, source.type, chatId, true);
  await upsertContact(rt.db, channel.tenantId, 'user', chatId, true);
  if (event.message?.type !== 'text' || !isLinkKeyword(event.message.text)) return;
  const linkToken = await client.issueLinkToken(chatId);
  const base = rt.publicUrl ?? channel.consoleOrigin;
  await reply(BOT_TEXTS.linkUrl(`${base}${LINE_LINK_PAGE}?${new URLSearchParams({ linkToken })}`));
}

async function onAccountLink(
  rt: TLineRuntime,
  channel: TLineChannel,
  event: TLineEvent,
  reply: (text: string) => Promise<void>,
): Promise<void> {
  const userId = event.source?.type === 'user' ? event.source.userId : undefined;
  if (!userId || !event.link) return;
  const linked = event.link.result === 'ok' ? await completeAccountLink(rt.db, channel.tenantId, event.link.nonce, userId) : null;
  if (!linked) {
    rt.log.warn({ tenantId: channel.tenantId, result: event.link.result }, 'LINE account link refused: unknown, expired or failed nonce');
    return reply(BOT_TEXTS.linkFailed);
  }
  await upsertContact(rt.db, channel.tenantId, 'user', userId, true);
  rt.log.info({ tenantId: channel.tenantId, accountId: linked.accountId }, 'LINE account linked');
  await reply(linkedText(linked.language, linked.email));
}
