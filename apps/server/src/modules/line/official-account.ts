/**
 * The tenant's Line official account (spec §3 "channel ID, secret, access token, bot basic ID"; §7 `/notification/v1`
 * Line official account): GET (secrets masked), PUT (secrets optional after the first save: left out = kept), DELETE.
 * Secrets are stored AES-256-GCM encrypted, bound to tenant and field (core/secret-box.ts).
 */
import { and, eq } from 'drizzle-orm';
import { linePaths, type TLineOfficialAccountInput, type TLineOfficialAccountState } from '@tessera/contracts';
import { randomSecret } from '../../core/crypto.js';
import { badRequest, notFound } from '../../core/errors.js';
import { maskSecret, type TSecretBox } from '../../core/secret-box.js';
import type { Db } from '../../db/client.js';
import { lineAccountLinks, lineContacts, lineLinkNonces, lineOfficialAccounts, lineOutbox } from '../../db/schema.js';

/** A tenant's channel with its secrets decrypted (server side only, never presented). */
export interface TLineChannel {
  tenantId: number;
  channelId: string;
  botBasicId: string;
  channelSecret: string;
  accessToken: string;
  webhookId: string;
  consoleOrigin: string;
  updatedAt: number;
}

const context = (tenantId: number, field: 'channel_secret' | 'access_token') => `line:${tenantId}:${field}`;

function decryptRow(box: TSecretBox, row: typeof lineOfficialAccounts.$inferSelect): TLineChannel {
  return {
    tenantId: row.tenantId,
    channelId: row.channelId,
    botBasicId: row.botBasicId,
    channelSecret: box.decrypt(row.channelSecretEnc, context(row.tenantId, 'channel_secret')),
    accessToken: box.decrypt(row.accessTokenEnc, context(row.tenantId, 'access_token')),
    webhookId: row.webhookId,
    consoleOrigin: row.consoleOrigin,
    updatedAt: row.updatedAt,
  };
}

/** The tenant's channel, or null when none is saved. */
export async function loadChannel(db: Db, box: TSecretBox, tenantId: number): Promise<TLineChannel | null> {
  const [row] = await db.select().from(lineOfficialAccounts).where(eq(lineOfficialAccounts.tenantId, tenantId));
  return row ? decryptRow(box, row) : null;
}

/** The channel whose webhook URL carries `webhookId`, or null. */
export async function loadChannelByWebhook(db: Db, box: TSecretBox, webhookId: string): Promise<TLineChannel | null> {
  const [row] = await db.select().from(lineOfficialAccounts).where(eq(lineOfficialAccounts.webhookId, webhookId));
  return row ? decryptRow(box, row) : null;
}

/** GET: the masked account and its webhook URL under `baseUrl` (PUBLIC_URL or the origin the console was reached on). */
export async function getOfficialAccount(db: Db, box: TSecretBox, tenantId: number, baseUrl: string): Promise<TLineOfficialAccountState> {
  const channel = await loadChannel(db, box, tenantId);
  if (!channel) return { account: null };
  return {
    account: {
      channel_id: channel.channelId,
      bot_basic_id: channel.botBasicId,
      channel_secret: maskSecret(channel.channelSecret),
      access_token: maskSecret(channel.accessToken),
      webhook_url: `${baseUrl}${linePaths.webhook(channel.webhookId)}`,
      updated_at: channel.updatedAt,
    },
  };
}

/**
 * PUT: saves the account. Secrets left out keep the stored ones; on the first save both are required. A different
 * channel ID is another bot: LINE user IDs differ per provider, so the tenant's contacts, links, nonces and unsent
 * pushes of the old channel are dropped (pushes marked failed).
 * @throws AppError 400 when a secret is missing on the first save.
 */
export async function putOfficialAccount(
  db: Db,
  box: TSecretBox,
  tenantId: number,
  input: TLineOfficialAccountInput,
  consoleOrigin: string,
  baseUrl: string,
): Promise<TLineOfficialAccountState> {
  const existing = await loadChannel(db, box, tenantId);
  const channelSecret = input.channel_secret ?? existing?.channelSecret;
  const accessToken = input.access_token ?? existing?.accessToken;
  if (!channelSecret) throw badRequest('the channel secret is required');
  if (!accessToken) throw badRequest('the access token is required');
  const now = Date.now();
  const values = {
    channelId: input.channel_id,
    botBasicId: input.bot_basic_id,
    channelSecretEnc: box.encrypt(channelSecret, context(tenantId, 'channel_secret')),
    accessTokenEnc: box.encrypt(accessToken, context(tenantId, 'access_token')),
    consoleOrigin,
    updatedAt: now,
  };
  await db.transaction(async (tx) => {
    if (existing && existing.channelId !== input.channel_id) await forgetChannel(tx, tenantId);
    await tx
      .insert(lineOfficialAccounts)
      .values({ tenantId, webhookId: randomSecret('', 18), ...values })
      .onConflictDoUpdate({ target: lineOfficialAccounts.tenantId, set: values });
  });
  return getOfficialAccount(db, box, tenantId, baseUrl);
}

/** DELETE: removes the account (its webhook URL stops answering, unsent pushes fail). @throws AppError 404 when none. */
export async function deleteOfficialAccount(db: Db, tenantId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const gone = await tx.delete(lineOfficialAccounts).where(eq(lineOfficialAccounts.tenantId, tenantId)).returning();
    if (gone.length === 0) throw notFound('Line official account');
    await failPending(tx, tenantId, 'the Line official account was removed');
  });
}

async function forgetChannel(tx: Db, tenantId: number): Promise<void> {
  await tx.delete(lineContacts).where(eq(lineContacts.tenantId, tenantId));
  await tx.delete(lineAccountLinks).where(eq(lineAccountLinks.tenantId, tenantId));
  await tx.delete(lineLinkNonces).where(eq(lineLinkNonces.tenantId, tenantId));
  await failPending(tx, tenantId, 'the Line official account changed channel');
}

async function failPending(tx: Db, tenantId: number, reason: string): Promise<void> {
  await tx
    .update(lineOutbox)
    .set({ status: 'failed', lastError: reason })
    .where(and(eq(lineOutbox.tenantId, tenantId), eq(lineOutbox.status, 'pending')));
}
