/**
 * Passwords (spec §7 PUT pwd, forgot-pwd, reset-pwd; §5 rule, enforced by ZPassword in the contracts): change
 * with the old one, or reset with a mailed code. argon2id hashes (core/crypto.ts).
 */
import { eq } from 'drizzle-orm';
import { ErrorCode, type TChangePasswordRequest, type TLanguage, type TResetPasswordRequest } from '@tessera/contracts';
import type { TMailer } from '../../core/context.js';
import { hashPassword, verifyPassword } from '../../core/crypto.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema.js';
import { clearAllAttempts } from './password-throttle.js';
import { familyOf, revokeAllSessions } from './sessions.js';
import { checkCode, claimCode, codeInvalid, sendVerificationCode } from './verification.js';

/**
 * PUT pwd: sets a new password after checking the old one, ends a forced password change (set_pwd_flag), and ends
 * every other session of the account: all its refresh tokens are revoked except the family of `refresh_token` (the
 * caller's own, which the console sends so it stays logged in). Access tokens already issued run out on their own
 * (ACCESS_TOKEN_TTL_S).
 * @throws AppError 400 AUTH_PASSWORD_INCORRECT when `old_password` is wrong; 404 when the account is gone.
 */
export async function changePassword(db: Db, accountId: number, input: TChangePasswordRequest): Promise<void> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw notFound('account');
  if (!(await verifyPassword(account.passwordHash, input.old_password))) {
    throw badRequest('password incorrect', ErrorCode.PasswordIncorrect);
  }
  const passwordHash = await hashPassword(input.password);
  const keepFamily = input.refresh_token ? await familyOf(db, accountId, input.refresh_token) : null;
  await db.transaction(async (tx) => {
    await tx.update(accounts).set({ passwordHash, mustSetPassword: false }).where(eq(accounts.id, accountId));
    await revokeAllSessions(tx, accountId, keepFamily);
  });
}

/**
 * forgot-pwd (and verify-email with purpose reset): mails a reset code in `language`, else the account's
 * language, when the account exists. Does nothing otherwise, so the answer cannot tell who has an account.
 */
export async function sendResetCode(db: Db, mailer: TMailer, email: string, language?: TLanguage): Promise<void> {
  const [account] = await db.select({ language: accounts.language }).from(accounts).where(eq(accounts.email, email));
  if (!account) return;
  await sendVerificationCode(db, mailer, { email, purpose: 'reset', language: language ?? account.language });
}

/**
 * reset-pwd: sets the password with a mailed code, lifts a login lock and the throttles of wrong passwords (the
 * code proves the mailbox) and revokes every refresh token of the account, so every session logs in again.
 * @throws AppError 400 AUTH_CODE_INVALID (wrong or expired code), 400 AUTH_PASSWORD_REUSED (same as the old one).
 */
export async function resetPassword(db: Db, input: TResetPasswordRequest): Promise<void> {
  const codeId = await checkCode(db, input.email, 'reset', input.code);
  const [account] = await db.select().from(accounts).where(eq(accounts.email, input.email));
  if (!account) throw codeInvalid();
  if (await verifyPassword(account.passwordHash, input.password)) {
    throw badRequest('the new password must differ from the old one', ErrorCode.PasswordReused);
  }
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await claimCode(tx, codeId);
    await tx.update(accounts).set({ passwordHash, mustSetPassword: false, lockedUntil: null }).where(eq(accounts.id, account.id));
    await revokeAllSessions(tx, account.id);
    await clearAllAttempts(tx, account.email);
  });
}
