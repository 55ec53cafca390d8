/**
 * `/authorization/v1` (spec §7 Auth): sign-up, login, session and password routes here; the logged-in account's
 * own routes (profile, pwd, API keys) and the admin routes in account-routes.ts. Handlers are thin: validate
 * (zod), call one domain function, answer.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ErrorCode,
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZLogoutRequest,
  ZRefreshRequest,
  ZRegisterRequest,
  ZResetPasswordRequest,
  ZTokenResponse,
  ZVerifyEmailRequest,
  type TVerifyEmailRequest,
} from '@tessera/contracts';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { accountRoutes } from './account-routes.js';
import { qrLoginRoutes } from './qr-login-routes.js';
import { login } from './login.js';
import { resetPassword, sendResetCode } from './passwords.js';
import { RATE_LIMITS } from './rate-limits.js';
import { registerAccount } from './register.js';
import { revokeFamilyOf, rotateRefreshToken } from './sessions.js';
import { sendVerificationCode } from './verification.js';

const tags = ['auth'];
const noContent = { 204: z.null().describe('no content') };
// Public routes: OpenAPI shows them without the global bearer requirement.
const open = { tags, security: [] };

/** Registers the auth routes (prefix `/authorization/v1`). */
export async function authRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  const { db, tokens, mailer } = ctx;
  // Per target address, shared by every route that mails a code (so switching routes does not reset it). A
  // checker rather than a second route limiter: the plugin runs one limiter per request.
  const mailsPerEmail = app.createRateLimit({
    ...RATE_LIMITS.mailPerEmail,
    keyGenerator: (req) => `email:${(req.body as { email?: string } | undefined)?.email ?? ''}`,
  });
  const perEmail = async (req: FastifyRequest) => {
    const limit = await mailsPerEmail(req);
    if (!limit.isAllowed && limit.isExceeded) {
      throw new AppError(429, ErrorCode.RateLimited, `too many mails to this address; retry in ${limit.ttlInSeconds} s`);
    }
  };
  const mailRoute = { preHandler: perEmail, config: { rateLimit: RATE_LIMITS.mailPerIp } };
  // Routes that check a mailed code: each code allows VERIFY_CODE_MAX_ATTEMPTS guesses; this bounds one address
  // across codes and keeps its flood off the database.
  const codeRoute = { config: { rateLimit: RATE_LIMITS.codePerIp } };

  app.post('/verify-email', { ...mailRoute, schema: { ...open, body: ZVerifyEmailRequest, response: noContent } }, async (req, reply) => {
    const body: TVerifyEmailRequest = req.body;
    if (body.purpose === 'reset') await sendResetCode(db, mailer, body.email, body.language);
    else await sendVerificationCode(db, mailer, { email: body.email, purpose: 'register', language: body.language ?? 'zh-TW' });
    return reply.status(204).send(null);
  });
  app.post('/register/aiot', { ...codeRoute, schema: { ...open, body: ZRegisterRequest, response: { 200: ZTokenResponse } } }, (req) =>
    registerAccount(db, tokens, req.body),
  );
  app.post(
    '/login',
    { config: { rateLimit: RATE_LIMITS.loginPerIp }, schema: { ...open, body: ZLoginRequest, response: { 200: ZTokenResponse } } },
    (req) => login(db, tokens, req.body, req.ip),
  );
  app.post('/refresh-token', { schema: { ...open, body: ZRefreshRequest, response: { 200: ZTokenResponse } } }, (req) =>
    rotateRefreshToken(db, tokens, req.body.refresh_token),
  );
  // No access token needed: the refresh token is the credential, and an expired session must still log out.
  app.post('/logout', { schema: { ...open, body: ZLogoutRequest.nullish(), response: noContent } }, async (req, reply) => {
    if (req.body?.refresh_token) await revokeFamilyOf(db, req.body.refresh_token);
    return reply.status(204).send(null);
  });
  app.post('/forgot-pwd', { ...mailRoute, schema: { ...open, body: ZForgotPasswordRequest, response: noContent } }, async (req, reply) => {
    await sendResetCode(db, mailer, req.body.email, req.body.language);
    return reply.status(204).send(null);
  });
  app.post('/reset-pwd', { ...codeRoute, schema: { ...open, body: ZResetPasswordRequest, response: noContent } }, async (req, reply) => {
    await resetPassword(db, req.body);
    return reply.status(204).send(null);
  });

  await accountRoutes(app, ctx);
  await qrLoginRoutes(app, ctx);
}
