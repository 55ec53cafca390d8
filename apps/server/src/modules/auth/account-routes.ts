/**
 * `/authorization/v1` routes of a logged-in account (spec §7 profile, pwd, security/api-key) and of the platform
 * admin (admin/account, admin/account/switch). Each acts on the caller's own account only, except the admin ones.
 * Routes that change credentials (API keys, the password, acting as another account) take a JWT session, never an
 * API key (session-guard.ts).
 */
import { z } from 'zod';
import {
  ZAccountList,
  ZAccountSwitchRequest,
  ZApiKeyCreate,
  ZApiKeyCreated,
  ZApiKeyList,
  ZApiKeyRevoke,
  ZChangePasswordRequest,
  ZListQuery,
  ZProfile,
  ZProfileUpdate,
  ZTokenResponse,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { principalOf, requireAdmin, requireAuth } from '../../core/principal.js';
import { listAccounts, switchToAccount } from './admin.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.js';
import { changePassword } from './passwords.js';
import { getProfile, updateProfile } from './profile.js';
import { requireAdminSession, requireSession } from './session-guard.js';

const tags = ['auth'];
const noContent = { 204: z.null().describe('no content') };
const auth = { preHandler: requireAuth };
const admin = { preHandler: requireAdmin };
const session = { preHandler: requireSession };

/** Registers the own-account and admin routes on the auth scope. */
export async function accountRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, tokens } = ctx;

  app.get('/profile', { ...auth, schema: { tags, response: { 200: ZProfile } } }, (req) => getProfile(db, principalOf(req).accountId));
  app.put('/profile', { ...auth, schema: { tags, body: ZProfileUpdate, response: { 200: ZProfile } } }, (req) =>
    updateProfile(db, principalOf(req).accountId, req.body),
  );
  app.put('/pwd', { ...session, schema: { tags, body: ZChangePasswordRequest, response: noContent } }, async (req, reply) => {
    await changePassword(db, principalOf(req).accountId, req.body);
    return reply.status(204).send(null);
  });

  app.get('/security/api-key', { ...session, schema: { tags, querystring: ZListQuery, response: { 200: ZApiKeyList } } }, (req) =>
    listApiKeys(db, principalOf(req).accountId, req.query),
  );
  app.post(
    '/security/api-key',
    { ...session, schema: { tags, body: ZApiKeyCreate, response: { 201: ZApiKeyCreated } } },
    async (req, reply) => reply.status(201).send(await createApiKey(db, principalOf(req).accountId, req.body)),
  );
  app.post('/security/api-key/revoke', { ...session, schema: { tags, body: ZApiKeyRevoke, response: noContent } }, async (req, reply) => {
    await revokeApiKey(db, principalOf(req).accountId, req.body.id);
    return reply.status(204).send(null);
  });

  app.get('/admin/account', { ...admin, schema: { tags, querystring: ZListQuery, response: { 200: ZAccountList } } }, (req) =>
    listAccounts(db, req.query),
  );
  app.post(
    '/admin/account/switch',
    { preHandler: requireAdminSession, schema: { tags, body: ZAccountSwitchRequest, response: { 200: ZTokenResponse } } },
    async (req) => {
      const admin = principalOf(req);
      // An admin acting as another admin who switches again is still the first admin acting.
      const actor = admin.actingAdmin ?? { accountId: admin.accountId, email: admin.email };
      const pair = await switchToAccount(db, tokens, req.body.account_id, actor);
      // An audit trail of who acted as whom: the admin's id, the target, and the request id from req.log.
      req.log.info({ adminAccountId: principalOf(req).accountId, targetAccountId: req.body.account_id }, 'admin switched to account');
      return pair;
    },
  );
}
