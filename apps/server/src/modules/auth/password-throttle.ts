/**
 * Wrong passwords are slowed down, never locked out (docs/decisions/auth.md "Wrong passwords"; OWASP ASVS 4.0.3 2.2.1:
 * anti-automation must not become an account lock-out attack; contracts LOGIN_FREE_FAILURES, LOGIN_ACCOUNT_FREE_FAILURES,
 * LOGIN_THROTTLE_*). Two backoffs, both in the database so every replica applies the same waits:
 * - per (email, purpose, client address) (`password_throttles`): that address's own wait;
 * - per (email, purpose) from every address together (`password_email_throttles`): the email's wait, which only an
 *   address that has failed for that email must also wait. An address that has not failed gets its attempt, so the
 *   owner's right password still logs in while the addresses that guessed wait.
 * Every attempt is reserved as a failure before the password is checked — in one transaction that locks the email's
 * row, then the address's — so a burst of parallel guesses cannot all slip through; a right password then gives the
 * address's failures back.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import {
  ErrorCode,
  LOGIN_ACCOUNT_FREE_FAILURES,
  LOGIN_FREE_FAILURES,
  LOGIN_THROTTLE_BASE_MS,
  LOGIN_THROTTLE_MAX_MS,
  LOGIN_THROTTLE_MEMORY_MS,
} from '@tessera/contracts';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { passwordEmailThrottles, passwordThrottles } from '../../db/schema.js';
import type { TDbOrTx } from './db-types.js';

/** Whose attempts are counted together: the email typed, what the password is for, and the client address. */
export interface TThrottleKey {
  email: string;
  purpose: 'login' | 'clean_data';
  clientIp: string;
}

/** Stale rows removed per attempt: enough to keep up with the table, few enough to stay a short statement. */
const FORGET_BATCH = 100;

/**
 * How long to wait after the `failures`-th consecutive failure, in ms: 0 for the first `free` ones, then
 * LOGIN_THROTTLE_BASE_MS doubling per failure, at most LOGIN_THROTTLE_MAX_MS.
 * @param free LOGIN_FREE_FAILURES for an address, LOGIN_ACCOUNT_FREE_FAILURES for an email.
 */
export function throttleDelayMs(failures: number, free = LOGIN_FREE_FAILURES): number {
  if (failures < free) return 0;
  return Math.min(LOGIN_THROTTLE_BASE_MS * 2 ** Math.min(failures - free, 30), LOGIN_THROTTLE_MAX_MS);
}

/** 429 AUTH_LOGIN_THROTTLED; `retryAfterS` goes into the Retry-After header. */
function throttled(retryAfterS: number): AppError {
  return new AppError(
    429,
    ErrorCode.LoginThrottled,
    `too many wrong passwords from this address: try again in ${retryAfterS} s`,
    undefined,
    retryAfterS,
  );
}

const addressIs = (key: TThrottleKey) =>
  and(eq(passwordThrottles.email, key.email), eq(passwordThrottles.purpose, key.purpose), eq(passwordThrottles.clientIp, key.clientIp));
const emailIs = (key: Pick<TThrottleKey, 'email' | 'purpose'>) =>
  and(eq(passwordEmailThrottles.email, key.email), eq(passwordEmailThrottles.purpose, key.purpose));

/**
 * Removes a batch of rows whose last failure is older than LOGIN_THROTTLE_MEMORY_MS. Housekeeping only (a stale row is
 * read as no failures anyway); rows another request holds are skipped, so this never waits for nor deadlocks with it.
 */
async function forgetOldFailures(db: Db, now: number): Promise<void> {
  const before = now - LOGIN_THROTTLE_MEMORY_MS;
  for (const table of [passwordEmailThrottles, passwordThrottles]) {
    await db.execute(sql`delete from ${table} where ctid in (
      select ctid from ${table} where ${lt(table.lastFailureAt, before)} limit ${FORGET_BATCH} for update skip locked)`);
  }
}

/**
 * Reserves one attempt for `key` at `now`: counted as a failure, for the address and for the email, until
 * {@link clearAttempts} says it was right. Failures older than LOGIN_THROTTLE_MEMORY_MS are forgotten.
 * @throws AppError 429 AUTH_LOGIN_THROTTLED (Retry-After) while the address must wait — its own wait, or the email's
 * when the address has failed for this email before (that attempt is not counted).
 */
export async function reserveAttempt(db: Db, key: TThrottleKey, now = Date.now()): Promise<void> {
  await forgetOldFailures(db, now);
  const remembered = (row: { failures: number; lastFailureAt: number }) =>
    row.lastFailureAt >= now - LOGIN_THROTTLE_MEMORY_MS ? row.failures : 0;
  const waitMs = await db.transaction(async (tx) => {
    // Rows must exist before they are locked: `for update` on a missing row locks nothing, and parallel first
    // attempts would all read "no failures yet". Always the email's row first, then the address's (no deadlock).
    const fresh = { failures: 0, blockedUntil: null, lastFailureAt: now };
    await tx
      .insert(passwordEmailThrottles)
      .values({ email: key.email, purpose: key.purpose, ...fresh })
      .onConflictDoNothing();
    const [emailRow] = await tx.select().from(passwordEmailThrottles).where(emailIs(key)).for('update');
    await tx
      .insert(passwordThrottles)
      .values({ ...key, ...fresh })
      .onConflictDoNothing();
    const [addressRow] = await tx.select().from(passwordThrottles).where(addressIs(key)).for('update');

    const addressFailures = remembered(addressRow);
    const emailFailures = remembered(emailRow);
    // Only an address that has failed for this email waits for the email: a fresh one (the owner's) gets its try.
    const until = addressFailures > 0 ? Math.max(addressRow.blockedUntil ?? 0, emailRow.blockedUntil ?? 0) : 0;
    if (until > now) return until - now;

    const addressDelay = throttleDelayMs(addressFailures + 1);
    const emailDelay = throttleDelayMs(emailFailures + 1, LOGIN_ACCOUNT_FREE_FAILURES);
    await tx
      .update(passwordThrottles)
      .set({ failures: addressFailures + 1, blockedUntil: addressDelay > 0 ? now + addressDelay : null, lastFailureAt: now })
      .where(addressIs(key));
    await tx
      .update(passwordEmailThrottles)
      .set({ failures: emailFailures + 1, blockedUntil: emailDelay > 0 ? now + emailDelay : null, lastFailureAt: now })
      .where(emailIs(key));
    return 0;
  });
  if (waitMs > 0) throw throttled(Math.ceil(waitMs / 1000));
}

/**
 * The reserved attempt of `key` was right: the address's failures are forgotten and given back to the email's count
 * (only the password's holder can do this). The email's current wait stays for the addresses that have failed.
 */
export async function clearAttempts(db: Db, key: TThrottleKey): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.select({ email: passwordEmailThrottles.email }).from(passwordEmailThrottles).where(emailIs(key)).for('update');
    const [gone] = await tx.delete(passwordThrottles).where(addressIs(key)).returning({ failures: passwordThrottles.failures });
    if (!gone) return;
    await tx
      .update(passwordEmailThrottles)
      .set({ failures: sql`greatest(${passwordEmailThrottles.failures} - ${gone.failures}, 0)` })
      .where(emailIs(key));
  });
}

/** Forgets every throttle of `email`, every purpose and address (a password reset by mail proved the mailbox). */
export async function clearAllAttempts(db: TDbOrTx, email: string): Promise<void> {
  // The email's rows first, as reserveAttempt locks them (no deadlock).
  await db.delete(passwordEmailThrottles).where(eq(passwordEmailThrottles.email, email));
  await db.delete(passwordThrottles).where(eq(passwordThrottles.email, email));
}
