/**
 * API keys (spec §7 security/api-key; §5 name ≤ 32, validity or permanent). A key is `tsk_` + 256 random bits,
 * stored as SHA-256 and shown once; core/principal.ts accepts it as a Bearer credential until it is revoked or
 * expires. Every query is scoped to the caller's own account. Only a JWT session manages keys — the routes guard
 * that (session-guard.ts), so a key can never mint, revoke or outlive itself (docs/decisions/auth.md "API keys").
 */
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { TApiKey, TApiKeyCreate, TApiKeyCreated, TListQuery, TPage } from '@tessera/contracts';
import { randomSecret, sha256 } from '../../core/crypto.js';
import { badRequest, notFound } from '../../core/errors.js';
import { API_KEY_PREFIX } from '../../core/principal.js';
import { pageOf } from '../../db/paging.js';
import type { Db } from '../../db/client.js';
import { apiKeys } from '../../db/schema.js';
import { searchAny } from '../../db/sql-helpers.js';
import { presentApiKey } from './presenters.js';

/** How many characters of a key the list shows: `tsk_` plus 8 random characters (48 bits, not enough to use). */
const SHOWN_PREFIX_CHARS = API_KEY_PREFIX.length + 8;

/** A page of the account's keys (revoked ones included, flagged), newest first; `q` searches names. */
export async function listApiKeys(db: Db, accountId: number, query: TListQuery): Promise<TPage<TApiKey>> {
  const where = and(eq(apiKeys.accountId, accountId), searchAny(query.q, [apiKeys.name]));
  return pageOf(
    query,
    db.select({ total: count() }).from(apiKeys).where(where),
    (limit, offset) => db.select().from(apiKeys).where(where).orderBy(desc(apiKeys.id)).limit(limit).offset(offset),
    presentApiKey,
  );
}

/**
 * Creates a key for `accountId`; the answer is the only time the full key is shown.
 * @throws AppError 400 VALIDATION_FAILED when `expires_at` is not in the future.
 */
export async function createApiKey(db: Db, accountId: number, input: TApiKeyCreate): Promise<TApiKeyCreated> {
  if (input.expires_at !== null && input.expires_at <= Date.now()) throw badRequest('expires_at must be in the future');
  const key = randomSecret(API_KEY_PREFIX);
  const [row] = await db
    .insert(apiKeys)
    .values({ accountId, name: input.name, prefix: key.slice(0, SHOWN_PREFIX_CHARS), keyHash: sha256(key), expiresAt: input.expires_at })
    .returning();
  return { ...presentApiKey(row), key };
}

/**
 * Revokes key `id` of `accountId` (idempotent for an already revoked key).
 * @throws AppError 404 when the account has no such key (another account's key included).
 */
export async function revokeApiKey(db: Db, accountId: number, id: number): Promise<void> {
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)));
  if (!row) throw notFound('API key');
  await db
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
}
