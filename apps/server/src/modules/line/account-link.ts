/**
 * Account link (spec §3 "account link"; LINE's flow:
 * https://developers.line.biz/en/docs/messaging-api/linking-accounts/). The bot replies to a LINE user with the
 * console's link page carrying LINE's link token; the logged-in account confirms there, which makes a one-time nonce
 * (stored as its SHA-256, valid LINE_LINK_NONCE_TTL_MS) and sends the browser to LINE's accountLink URL; LINE then
 * posts an `accountLink` event with the nonce and the LINE user ID, which {@link completeAccountLink} stores.
 */
import { and, eq, lt, ne } from 'drizzle-orm';
import {
  LINE_ACCOUNT_LINK_URL,
  LINE_LINK_NONCE_TTL_MS,
  LineErrorCode,
  type TAccountLinkRedirect,
  type TAccountLinkStatus,
  type TLineLinkedUser,
} from '@tessera/contracts';
import { randomSecret, sha256 } from '../../core/crypto.js';
import { conflict, notFound } from '../../core/errors.js';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { accounts, lineAccountLinks, lineContacts, lineLinkNonces, lineOfficialAccounts } from '../../db/schema.js';

/**
 * POST account-link: a nonce for the caller and the LINE URL that finishes the link.
 * @throws AppError 409 LINE_NOT_CONFIGURED when the caller's tenant has no Line official account.
 */
export async function startAccountLink(db: Db, principal: TPrincipal, linkToken: string, now = Date.now()): Promise<TAccountLinkRedirect> {
  const [channel] = await db
    .select({ t: lineOfficialAccounts.tenantId })
    .from(lineOfficialAccounts)
    .where(eq(lineOfficialAccounts.tenantId, principal.tenantId));
  if (!channel) throw conflict('the Line official account is not set up', LineErrorCode.NotConfigured);
  const nonce = randomSecret('', 32);
  const expiresAt = now + LINE_LINK_NONCE_TTL_MS;
  await db.delete(lineLinkNonces).where(lt(lineLinkNonces.expiresAt, now));
  await db
    .insert(lineLinkNonces)
    .values({ nonceHash: sha256(nonce), tenantId: principal.tenantId, accountId: principal.accountId, expiresAt });
  const url = `${LINE_ACCOUNT_LINK_URL}?${new URLSearchParams({ linkToken, nonce })}`;
  return { url, expires_at: expiresAt };
}

/**
 * Handles LINE's `accountLink` event: a live nonce of `tenantId` links its account to `lineUserId` (replacing the
 * account's earlier link and moving the LINE user off any other account of the tenant). The nonce is used up either
 * way. Answers the linked account's id and language, or null for an unknown, expired or other tenant's nonce.
 */
export async function completeAccountLink(
  db: Db,
  tenantId: number,
  nonce: string,
  lineUserId: string,
  now = Date.now(),
): Promise<{ accountId: number; email: string; language: 'zh-TW' | 'en' } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(lineLinkNonces)
      .where(eq(lineLinkNonces.nonceHash, sha256(nonce)))
      .returning();
    if (!row || row.tenantId !== tenantId || row.expiresAt <= now) return null;
    const [account] = await tx
      .select({ email: accounts.email, language: accounts.language })
      .from(accounts)
      .where(and(eq(accounts.id, row.accountId), eq(accounts.tenantId, tenantId)));
    if (!account) return null;
    await tx
      .delete(lineAccountLinks)
      .where(
        and(
          eq(lineAccountLinks.tenantId, tenantId),
          eq(lineAccountLinks.lineUserId, lineUserId),
          ne(lineAccountLinks.accountId, row.accountId),
        ),
      );
    const values = { tenantId, lineUserId, linkedAt: now };
    await tx
      .insert(lineAccountLinks)
      .values({ accountId: row.accountId, ...values })
      .onConflictDoUpdate({ target: lineAccountLinks.accountId, set: values });
    return { accountId: row.accountId, ...account };
  });
}

/** GET account-link: the caller's link and the bot to befriend. */
export async function accountLinkStatus(db: Db, principal: TPrincipal): Promise<TAccountLinkStatus> {
  const [link] = await db
    .select({ linkedAt: lineAccountLinks.linkedAt, name: lineContacts.name })
    .from(lineAccountLinks)
    .leftJoin(lineContacts, and(eq(lineContacts.tenantId, lineAccountLinks.tenantId), eq(lineContacts.lineId, lineAccountLinks.lineUserId)))
    .where(and(eq(lineAccountLinks.accountId, principal.accountId), eq(lineAccountLinks.tenantId, principal.tenantId)));
  const [channel] = await db
    .select({ botBasicId: lineOfficialAccounts.botBasicId })
    .from(lineOfficialAccounts)
    .where(eq(lineOfficialAccounts.tenantId, principal.tenantId));
  return {
    linked: Boolean(link),
    linked_at: link?.linkedAt ?? null,
    line_name: link?.name ?? null,
    bot_basic_id: channel?.botBasicId ?? null,
  };
}

/** DELETE account-link: removes the caller's link. @throws AppError 404 when there is none. */
export async function unlinkAccount(db: Db, principal: TPrincipal): Promise<void> {
  const gone = await db
    .delete(lineAccountLinks)
    .where(and(eq(lineAccountLinks.accountId, principal.accountId), eq(lineAccountLinks.tenantId, principal.tenantId)))
    .returning();
  if (gone.length === 0) throw notFound('LINE link');
}

/** GET user: the tenant's accounts with a LINE link, by email. */
export async function listLinkedUsers(db: Db, tenantId: number): Promise<{ data: TLineLinkedUser[] }> {
  const rows = await db
    .select({
      accountId: accounts.id,
      email: accounts.email,
      name: accounts.name,
      lineName: lineContacts.name,
      active: lineContacts.active,
      linkedAt: lineAccountLinks.linkedAt,
    })
    .from(lineAccountLinks)
    .innerJoin(accounts, eq(accounts.id, lineAccountLinks.accountId))
    .leftJoin(lineContacts, and(eq(lineContacts.tenantId, lineAccountLinks.tenantId), eq(lineContacts.lineId, lineAccountLinks.lineUserId)))
    .where(eq(lineAccountLinks.tenantId, tenantId))
    .orderBy(accounts.email);
  return {
    data: rows.map((r) => ({
      account_id: r.accountId,
      email: r.email,
      name: r.name,
      line_name: r.lineName,
      following: r.active !== false,
      linked_at: r.linkedAt,
    })),
  };
}
