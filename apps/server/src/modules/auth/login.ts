/**
 * POST login (spec §7; §6 "vendor and user, with separate logins"; §8 messages "wrong account or password",
 * "account locked"). Role "vendor" admits vendor and admin accounts, role "user" admits user accounts. Wrong
 * passwords are first slowed down per (email, client address) (password-throttle.ts); MAX_LOGIN_FAILURES consecutive
 * wrong passwords from anywhere lock the account for ACCOUNT_LOCK_MS (docs/decisions/auth.md "Wrong passwords").
 */
import { eq, sql } from 'drizzle-orm';
import { ACCOUNT_LOCK_MS, ErrorCode, MAX_LOGIN_FAILURES, type TLoginRequest, type TTokenResponse } from '@tessera/contracts';
import { hashPassword, verifyPassword } from '../../core/crypto.js';
import { AppError } from '../../core/errors.js';
import type { TokenService } from '../../core/tokens.js';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema.js';
import { clearAttempts, reserveAttempt, type TThrottleKey } from './password-throttle.js';
import { issueTokenPair } from './sessions.js';

/** §8 "wrong account or password": the same answer whether or not the email exists. */
export const wrongCredentials = () => new AppError(401, ErrorCode.WrongCredentials, 'wrong account or password');
/** §8 "account locked (contact administrator)". */
export const accountLocked = () =>
  new AppError(
    423,
    ErrorCode.AccountLocked,
    'account locked after repeated failed logins; contact the administrator, or reset the password by mail to unlock it',
  );

// Verified when the email is unknown so that both answers take as long (no account enumeration by timing).
let dummyHash: Promise<string> | undefined;

/**
 * Logs in from `clientIp`: answers a token pair for the right password and role.
 * @throws AppError 401 AUTH_WRONG_CREDENTIALS for an unknown email, wrong password or wrong login role;
 * 429 AUTH_LOGIN_THROTTLED (Retry-After) while this email must wait after wrong passwords from this address, known
 * account or not; 423 AUTH_ACCOUNT_LOCKED while locked (even with the right password) and on the failure that locks it.
 */
export async function login(db: Db, tokens: TokenService, input: TLoginRequest, clientIp: string): Promise<TTokenResponse> {
  const [account] = await db.select().from(accounts).where(eq(accounts.email, input.email));
  const now = Date.now();
  if (account?.lockedUntil != null && account.lockedUntil > now) throw accountLocked();
  const source: TThrottleKey = { email: input.email, purpose: 'login', clientIp };
  await reserveAttempt(db, source, now);
  if (!account) {
    dummyHash ??= hashPassword('not-a-password-1A!');
    await verifyPassword(await dummyHash, input.password);
    throw wrongCredentials();
  }
  if (!(await verifyPassword(account.passwordHash, input.password))) {
    if (await recordFailure(db, account.id, now)) throw accountLocked();
    throw wrongCredentials();
  }
  // A right password for the other login page is not a guess: it neither counts nor resets the failures.
  const roleFits = input.role === 'user' ? account.level === 'user' : account.level !== 'user';
  await clearAttempts(db, source);
  if (!roleFits) throw wrongCredentials();
  await db.update(accounts).set({ failedLogins: 0, lockedUntil: null }).where(eq(accounts.id, account.id));
  return issueTokenPair(db, tokens, account);
}

/**
 * Counts a wrong password in one statement (concurrent guesses cannot undercount); a lock that has run out
 * starts the count afresh. Answers true when this failure locked the account.
 */
export async function recordFailure(db: Db, accountId: number, now: number): Promise<boolean> {
  const expired = sql`(${accounts.lockedUntil} is not null and ${accounts.lockedUntil} <= ${now})`;
  const failures = sql`(case when ${expired} then 1 else ${accounts.failedLogins} + 1 end)`;
  const [row] = await db
    .update(accounts)
    .set({
      failedLogins: failures,
      lockedUntil: sql`case when ${failures} >= ${MAX_LOGIN_FAILURES} then ${now + ACCOUNT_LOCK_MS}::bigint when ${expired} then null else ${accounts.lockedUntil} end`,
    })
    .where(eq(accounts.id, accountId))
    .returning({ lockedUntil: accounts.lockedUntil });
  return row.lockedUntil !== null && row.lockedUntil > now;
}
