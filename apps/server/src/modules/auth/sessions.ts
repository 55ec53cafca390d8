/**
 * Sessions (spec §7 login, refresh-token, logout; §3 token payload): a short-lived JWT access token plus a
 * rotating refresh token. Refresh tokens are 256-bit random values stored as SHA-256; each use answers a new
 * pair in the same family and marks the old one used. Presenting a used token again means it was copied:
 * the whole family is revoked (OAuth 2.0 Security BCP §4.14 refresh-token rotation).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { ErrorCode, REFRESH_TOKEN_TTL_S, type TTokenResponse } from '@tessera/contracts';
import { randomSecret, sha256 } from '../../core/crypto.js';
import { AppError } from '../../core/errors.js';
import type { TokenService } from '../../core/tokens.js';
import type { Db } from '../../db/client.js';
import { accounts, refreshTokens } from '../../db/schema.js';
import type { TDbOrTx } from './db-types.js';

type TAccountRow = typeof accounts.$inferSelect;

/** §8 UAE0007: the console does not retry; it logs out. */
const refreshInvalid = () => new AppError(401, ErrorCode.RefreshInvalid, 'the refresh token is invalid, expired or revoked; log in again');

/** The platform admin behind an act-as session: its account id and e-mail. */
export interface TActingAdmin {
  accountId: number;
  email: string;
}

/**
 * Signs an access token from the account row (so level, features and tenant are always current) and stores a
 * new refresh token in `familyId` (a new family when omitted). `set_pwd_flag` is set while the account must
 * choose a password (§4). With `actingAdmin` (admin/account/switch) the token carries its `act` claim and the
 * family remembers it, so every refreshed token of the session still names the admin (the audit log records it).
 */
export async function issueTokenPair(
  db: TDbOrTx,
  tokens: TokenService,
  account: TAccountRow,
  familyId: string = randomUUID(),
  actingAdmin: TActingAdmin | null = null,
): Promise<TTokenResponse> {
  const refresh = randomSecret();
  await db.insert(refreshTokens).values({
    accountId: account.id,
    familyId,
    tokenHash: sha256(refresh),
    expiresAt: Date.now() + REFRESH_TOKEN_TTL_S * 1000,
    actingAdminId: actingAdmin?.accountId ?? null,
  });
  const token = await tokens.sign({
    sub: String(account.id),
    tid: account.tenantId,
    email: account.email,
    level: account.level,
    fea: account.features,
    ...(actingAdmin ? { act: { sub: String(actingAdmin.accountId), email: actingAdmin.email } } : {}),
  });
  return { token, refresh_token: refresh, ...(account.mustSetPassword ? { set_pwd_flag: true } : {}) };
}

/**
 * Exchanges a refresh token for a new pair (rotation).
 * @throws AppError 401 UAE0007 when the token is unknown, expired, revoked or already used; a reuse also revokes
 * every token of its family, including the newer one the legitimate holder got.
 */
export async function rotateRefreshToken(db: Db, tokens: TokenService, refreshToken: string): Promise<TTokenResponse> {
  const outcome = await db.transaction(async (tx): Promise<{ pair: TTokenResponse } | { reusedFamily: string } | null> => {
    const now = Date.now();
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(refreshToken)));
    if (!row || row.revokedAt !== null || row.expiresAt <= now) return null;
    const used = await tx
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt)))
      .returning({ id: refreshTokens.id });
    if (used.length === 0) return { reusedFamily: row.familyId };
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, row.accountId));
    return { pair: await issueTokenPair(tx, tokens, account, row.familyId, await actingAdminOf(tx, row.actingAdminId)) };
  });
  if (outcome && 'pair' in outcome) return outcome.pair;
  // Revoked after the transaction: the reuse answer must stick even though the request fails.
  if (outcome) await revokeFamily(db, outcome.reusedFamily);
  throw refreshInvalid();
}

/** Revokes every live token of `familyId` (logout, reuse). */
export async function revokeFamily(db: TDbOrTx, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: Date.now() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Logout: revokes the family of `refreshToken` when it is known; unknown tokens are ignored. */
export async function revokeFamilyOf(db: Db, refreshToken: string): Promise<void> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(refreshToken)));
  if (row) await revokeFamily(db, row.familyId);
}

/**
 * Revokes every refresh token of `accountId` (password reset: every device logs in again), except those of
 * `keepFamily` when given (password change: the caller's own session stays).
 */
export async function revokeAllSessions(db: TDbOrTx, accountId: number, keepFamily: string | null = null): Promise<void> {
  const others = keepFamily === null ? undefined : ne(refreshTokens.familyId, keepFamily);
  await db
    .update(refreshTokens)
    .set({ revokedAt: Date.now() })
    .where(and(eq(refreshTokens.accountId, accountId), isNull(refreshTokens.revokedAt), others));
}

/** The family of `refreshToken` when it is a token of `accountId`, else null. */
export async function familyOf(db: TDbOrTx, accountId: number, refreshToken: string): Promise<string | null> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, sha256(refreshToken)), eq(refreshTokens.accountId, accountId)));
  return row?.familyId ?? null;
}

/** The admin `adminId` names (its current e-mail), or null when none is named or the account is gone. */
async function actingAdminOf(db: TDbOrTx, adminId: number | null): Promise<TActingAdmin | null> {
  if (adminId === null) return null;
  const [admin] = await db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, adminId));
  return admin ? { accountId: adminId, email: admin.email } : null;
}
