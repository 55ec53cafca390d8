/**
 * Test fixtures of the LINE module: a channel per vendor saved through the API, signed webhook calls (as LINE makes
 * them), and the whole account-link flow (bot reply → console confirm → LINE's accountLink event).
 */
import { randomBytes } from 'node:crypto';
import { linePaths, type TAccountLinkRedirect, type TLineOfficialAccountState } from '@tessera/contracts';
import type { TBuiltAccount } from '../../../test/factories.js';
import { lineEvents, signLine, webhookBody, type TFakeLine } from '../../../test/fake-line.js';
import type { TTestServer } from '../../../test/helpers.js';

/** A vendor's saved channel: what LINE knows (secret, token) and where its webhook is. */
export interface TTestChannel {
  channelId: string;
  channelSecret: string;
  accessToken: string;
  botBasicId: string;
  webhookPath: string;
}

/** Saves a fresh channel for `vendor` through PUT official-account. */
export async function setupChannel(server: TTestServer, vendor: TBuiltAccount): Promise<TTestChannel> {
  const channel = {
    channelId: String(1_000_000_000 + Math.floor(Math.random() * 1e9)),
    channelSecret: randomBytes(16).toString('hex'),
    accessToken: `tok${randomBytes(24).toString('base64url')}`,
    botBasicId: '@tessera',
  };
  const res = await server.api<TLineOfficialAccountState>('PUT', linePaths.officialAccount, {
    token: vendor.token,
    body: {
      channel_id: channel.channelId,
      channel_secret: channel.channelSecret,
      access_token: channel.accessToken,
      bot_basic_id: channel.botBasicId,
    },
  });
  if (res.status !== 200 || !res.body.account) throw new Error(`official account not saved: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...channel, webhookPath: new URL(res.body.account.webhook_url).pathname };
}

/** POSTs `events` to the channel's webhook, signed with its secret unless `signature` says otherwise (null: none). */
export function postWebhook(server: TTestServer, channel: TTestChannel, events: unknown[], signature?: string | null) {
  const payload = webhookBody(events);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  const sig = signature === undefined ? signLine(payload, channel.channelSecret) : signature;
  if (sig !== null) headers['x-line-signature'] = sig;
  return server.app.inject({ method: 'POST', url: channel.webhookPath, headers, payload });
}

/** The text of the newest reply the fake received. */
export function lastReplyText(fake: TFakeLine): string {
  const replies = fake.calls('/v2/bot/message/reply');
  const body = replies[replies.length - 1]?.body as { messages: { text: string }[] } | undefined;
  return body?.messages[0]?.text ?? '';
}

/** The link token inside the console URL of a reply text. */
export function linkTokenOf(replyText: string): string {
  const url = /https?:\/\/\S+/.exec(replyText)?.[0];
  const token = url ? new URL(url).searchParams.get('linkToken') : null;
  if (!token) throw new Error(`no link URL in reply: ${replyText}`);
  return token;
}

/**
 * Links `account` to LINE user `lineUserId` the way it happens for real: the user types "綁定", the bot replies with
 * the link page, the account confirms (POST account-link), LINE posts `accountLink` with the nonce.
 */
export async function linkAccount(
  server: TTestServer,
  fake: TFakeLine,
  channel: TTestChannel,
  account: TBuiltAccount,
  lineUserId: string,
): Promise<void> {
  const typed = await postWebhook(server, channel, [lineEvents.text(lineUserId, '綁定')]);
  if (typed.statusCode !== 200) throw new Error(`webhook ${typed.statusCode} ${typed.body}`);
  const linkToken = linkTokenOf(lastReplyText(fake));
  const start = await server.api<TAccountLinkRedirect>('POST', linePaths.accountLink, { token: account.token, body: { linkToken } });
  const nonce = new URL(start.body.url).searchParams.get('nonce');
  if (!nonce) throw new Error(`no nonce: ${JSON.stringify(start.body)}`);
  const linked = await postWebhook(server, channel, [lineEvents.accountLink(lineUserId, nonce)]);
  if (linked.statusCode !== 200) throw new Error(`accountLink ${linked.statusCode} ${linked.body}`);
}

/** A LINE user ID (U + 32 hex, as LINE's). */
export const lineUserId = () => `U${randomBytes(16).toString('hex')}`;
/** A LINE group ID (C + 32 hex). */
export const lineGroupId = () => `C${randomBytes(16).toString('hex')}`;
