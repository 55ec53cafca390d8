/**
 * Guards of the routes that change an account's credentials: API keys (create, list, revoke), the password, and an
 * admin acting as another account. Only a person signed in with the password — a JWT session — may use them; an API
 * key may not, or a leaked key that expires soon could mint itself a permanent successor, change the password or
 * open sessions (docs/decisions/auth.md "API keys").
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@tessera/contracts';
import { AppError } from '../../core/errors.js';
import { principalOf, requireAdmin, requireAuth } from '../../core/principal.js';

/** 403 AUTH_SESSION_REQUIRED: the caller is authenticated, but by an API key. */
export const sessionRequired = () =>
  new AppError(403, ErrorCode.SessionRequired, 'API keys cannot change credentials: sign in with the password to do this');

/** preHandler: a JWT session of any level. 401 without a credential (UAE0004 when expired); 403 for an API key. */
export async function requireSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireAuth(request, reply);
  if (principalOf(request).via !== 'jwt') throw sessionRequired();
}

/** preHandler: a platform admin's JWT session. 401, then 403 FORBIDDEN for another level, 403 for an API key. */
export async function requireAdminSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireAdmin(request, reply);
  if (principalOf(request).via !== 'jwt') throw sessionRequired();
}
