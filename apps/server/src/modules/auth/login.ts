/**
 * POST login (spec §7; §6 "vendor and user, with separate logins"; §8 messages "wrong account or password",
 * "account locked"). Role "vendor" admits vendor and admin accounts, role "user" admits user accounts. Wrong
 * passwords are slowed down per client address and per email, never locked out (password-throttle.ts;
 * docs/decisions/auth.md "Wrong passwords").
 */
import { eq } from 'drizzle-orm';
import { ErrorCode, type TLoginRequest, type TTokenResponse } from '@tessera/contracts';
import { hashPassword, verifyPassword } from '../../core/crypto.js';
import { AppError } from '../../core/errors.js';
import type { TokenService } from '../../core/tokens.js';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema.js';
import { clearAttempts, reserveAttempt, type TThrottleKey } from './password-throttle.js';
import { issueTokenPair } from './sessions.js';

/** §8 "wrong account or password": the same answer whether or not the email exists. */
export const wrongCredentials = () => new AppError(401, ErrorCode.WrongCredentials, 'wrong account or password');
/** §8 "account locked (contact administrator)": an operator's lock (`accounts.locked_until`), never wrong passwords. */
export const accountLocked = () =>
  new AppError(423, ErrorCode.AccountLocked, 'account locked; contact the administrator, or reset the password by mail to unlock it');

// Verified when the email is unknown so that both answers take as long (no account enumeration by timing).
let dummyHash: Promise<string> | undefined;

/**
 * Logs in from `clientIp`: answers a token pair for the right password and role.
 * @throws AppError 401 AUTH_WRONG_CREDENTIALS for an unknown email, wrong password or wrong login role;
 * 429 AUTH_LOGIN_THROTTLED (Retry-After) while this address must wait after wrong passwords for this email, known
 * account or not (password-throttle.ts); 423 AUTH_ACCOUNT_LOCKED while an operator's lock lasts.
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
  if (!(await verifyPassword(account.passwordHash, input.password))) throw wrongCredentials();
  // A right password for the other login page is not a guess: its reserved failure is given back.
  await clearAttempts(db, source);
  const roleFits = input.role === 'user' ? account.level === 'user' : account.level !== 'user';
  if (!roleFits) throw wrongCredentials();
  return issueTokenPair(db, tokens, account);
}
