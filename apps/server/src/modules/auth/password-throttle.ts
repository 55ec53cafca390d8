/**
 * The slow-down of wrong passwords per (email, purpose, client address) that comes before the account lock
 * (docs/decisions/auth.md "Wrong passwords"; contracts LOGIN_FREE_FAILURES, LOGIN_THROTTLE_*). Every attempt is
 * reserved as a failure before the password is checked — in one transaction with a row lock — so a burst of parallel
 * guesses cannot all slip through the free attempts; a right password then clears the row. Rows live in the
 * database, so every replica applies the same wait.
 */
import { and, eq, lt } from 'drizzle-orm';
import {
  ErrorCode,
  LOGIN_FREE_FAILURES,
  LOGIN_THROTTLE_BASE_MS,
  LOGIN_THROTTLE_MAX_MS,
  LOGIN_THROTTLE_MEMORY_MS,
} from '@tessera/contracts';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { passwordThrottles } from '../../db/schema.js';

/** Whose attempts are counted together: the email typed, what the password is for, and the client address. */
export interface TThrottleKey {
  email: string;
  purpose: 'login' | 'clean_data';
  clientIp: string;
}

/** How long a key must wait after its `failures`-th consecutive failure, in ms (0 while attempts are free). */
export function throttleDelayMs(failures: number): number {
  if (failures < LOGIN_FREE_FAILURES) return 0;
  return Math.min(LOGIN_THROTTLE_BASE_MS * 2 ** (failures - LOGIN_FREE_FAILURES), LOGIN_THROTTLE_MAX_MS);
}

/** 429 AUTH_LOGIN_THROTTLED; `retryAfterS` goes into the Retry-After header. */
export function throttled(retryAfterS: number): AppError {
  return new AppError(
    429,
    ErrorCode.LoginThrottled,
    `too many wrong passwords from this address: try again in ${retryAfterS} s`,
    undefined,
    retryAfterS,
  );
}

const keyIs = (key: TThrottleKey) =>
  and(eq(passwordThrottles.email, key.email), eq(passwordThrottles.purpose, key.purpose), eq(passwordThrottles.clientIp, key.clientIp));

/**
 * Reserves one attempt for `key` at `now`: counted as a failure until {@link clearAttempts} says it was right.
 * Failures older than LOGIN_THROTTLE_MEMORY_MS are forgotten first.
 * @throws AppError 429 AUTH_LOGIN_THROTTLED while the key must wait (that attempt is not counted).
 */
export async function reserveAttempt(db: Db, key: TThrottleKey, now = Date.now()): Promise<void> {
  const waitMs = await db.transaction(async (tx) => {
    await tx.delete(passwordThrottles).where(lt(passwordThrottles.lastFailureAt, now - LOGIN_THROTTLE_MEMORY_MS));
    // The row must exist before it is locked: `for update` on a missing row locks nothing, and parallel first
    // attempts would all read "no failures yet".
    await tx
      .insert(passwordThrottles)
      .values({ ...key, failures: 0, blockedUntil: null, lastFailureAt: now })
      .onConflictDoNothing();
    const [row] = await tx.select().from(passwordThrottles).where(keyIs(key)).for('update');
    if (row.blockedUntil && row.blockedUntil > now) return row.blockedUntil - now;
    const failures = row.failures + 1;
    const delay = throttleDelayMs(failures);
    await tx
      .update(passwordThrottles)
      .set({ failures, blockedUntil: delay > 0 ? now + delay : null, lastFailureAt: now })
      .where(keyIs(key));
    return 0;
  });
  if (waitMs > 0) throw throttled(Math.ceil(waitMs / 1000));
}

/** The reserved attempt of `key` was right: its failures are forgotten. */
export async function clearAttempts(db: Db, key: TThrottleKey): Promise<void> {
  await db.delete(passwordThrottles).where(keyIs(key));
}

/** Forgets every throttle of `email` (a password reset by mail proved the mailbox). */
export async function clearAllAttempts(db: Pick<Db, 'delete'>, email: string): Promise<void> {
  await db.delete(passwordThrottles).where(eq(passwordThrottles.email, email));
}
