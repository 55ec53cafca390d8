/**
 * Who is calling: resolved once per request from `Authorization: Bearer <JWT | API key>` (ARCHITECTURE.md "API").
 * Routes declare what they need with {@link requireAuth} / {@link requireVendor}.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, hasFeature, MENU_SECTIONS, type TAccountLevel } from '@tessera/contracts';
import type { Db } from '../db/client.js';
import { accounts, apiKeys } from '../db/schema.js';
import { sha256 } from './crypto.js';
import { AppError, forbidden, unauthorized } from './errors.js';
import type { TokenService } from './tokens.js';

/** The authenticated caller. `tenantId` scopes every query. */
export interface TPrincipal {
  accountId: number;
  tenantId: number;
  email: string;
  level: TAccountLevel;
  fea: string[];
  via: 'jwt' | 'api_key';
  /** The platform admin acting as this account (the token's `act` claim), or null on the account's own session. */
  actingAdmin?: { accountId: number; email: string } | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by {@link resolvePrincipal}; null for an anonymous caller. */
    principal: TPrincipal | null;
    /** Why a presented token was refused, when it was. */
    authFailure: AppError | null;
  }
}

/** API keys start with this, which is how they are told apart from JWTs. */
export const API_KEY_PREFIX = 'tsk_';

/**
 * Resolves the bearer credential to a principal. An expired JWT is remembered as UAE0004 so that routes
 * needing auth answer `401 {code: "UAE0004"}` (§8: the console refreshes once and retries).
 */
export async function resolvePrincipal(request: FastifyRequest, db: Db, tokens: TokenService): Promise<void> {
  request.principal = null;
  request.authFailure = null;
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return;
  const credential = header.slice(7).trim();
  if (credential.startsWith(API_KEY_PREFIX)) {
    request.principal = await principalFromApiKey(db, credential);
    if (!request.principal) request.authFailure = unauthorized('the API key is invalid, revoked or expired');
    return;
  }
  const result = await tokens.verify(credential);
  if (result.ok) {
    const p = result.payload;
    const actingAdmin = p.act ? { accountId: Number(p.act.sub), email: p.act.email } : null;
    request.principal = { accountId: Number(p.sub), tenantId: p.tid, email: p.email, level: p.level, fea: p.fea, via: 'jwt', actingAdmin };
  } else {
    request.authFailure =
      result.reason === 'expired'
        ? new AppError(401, ErrorCode.TokenExpired, 'the access token has expired')
        : unauthorized('the access token is invalid');
  }
}

async function principalFromApiKey(db: Db, key: string): Promise<TPrincipal | null> {
  const [row] = await db
    .select({ key: apiKeys, account: accounts })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.keyHash, sha256(key)), isNull(apiKeys.revokedAt)));
  if (!row || (row.key.expiresAt !== null && row.key.expiresAt <= Date.now())) return null;
  const a = row.account;
  return { accountId: a.id, tenantId: a.tenantId, email: a.email, level: a.level, fea: a.features, via: 'api_key' };
}

/** preHandler: any authenticated caller. 401 otherwise (UAE0004 when the token has expired). */
export async function requireAuth(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.principal) throw request.authFailure ?? unauthorized();
}

/** preHandler: a vendor or admin (§6 "Product and project are vendor only"). 401 / 403 otherwise. */
export async function requireVendor(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireAuth(request, reply);
  if (request.principal!.level === 'user') throw forbidden('vendors only');
}

/** preHandler: a platform admin. */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireAuth(request, reply);
  if (request.principal!.level !== 'admin') throw forbidden('platform admins only');
}

/** The principal of a request that passed {@link requireAuth}. */
export function principalOf(request: FastifyRequest): TPrincipal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

/**
 * A preHandler gating a menu section's API as the console's route guard gates its pages (spec §2 menu, §6 "access
 * also depends on feature codes"): 401 without a login; 403 when the account's feature codes grant none of the
 * section's pages. With `usersOnly`, vendors and admins pass whatever their codes (a section users may be granted
 * to view, but vendors own).
 * @param sectionKey the section's `key` in MENU_SECTIONS (e.g. `alerts`, `download`).
 */
export function requireSection(sectionKey: string, opts: { usersOnly?: boolean } = {}) {
  const section = MENU_SECTIONS.find((s) => s.key === sectionKey);
  if (!section) throw new Error(`no menu section ${sectionKey}`);
  const codes = section.pages.map((p) => p.code);
  return async function requireSectionFeature(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await requireAuth(request, reply);
    const { level, fea } = principalOf(request);
    if (opts.usersOnly && level !== 'user') return;
    if (!codes.some((code) => hasFeature(fea, code))) throw forbidden(`the ${sectionKey} section is not granted to this account`);
  };
}
