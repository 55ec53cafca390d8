/**
 * Countdown arithmetic of the auth screens: seconds left until a moment, and when the sign-up's "send code" button
 * may mail again (docs/decisions/auth.md "Sign-up screens"). Pure; times are epoch milliseconds.
 */

/**
 * How long the sign-up's "send code" button stays disabled after a code was mailed, in milliseconds. The spec gives
 * no value; one minute lets a slow mail arrive before a second one supersedes it, and stays inside the server's
 * limit of 5 mails per address per 10 minutes for anyone who waits a moment between tries.
 */
export const RESEND_CODE_COOLDOWN_MS = 60_000;

/** A code mailed by the sign-up form: to which address, and when (epoch ms). */
export interface TCodeSent {
  email: string;
  sentAt: number;
}

/** Whole seconds from `now` until `until` (both epoch ms), rounded up; 0 when `until` is null or past. */
export function secondsUntil(until: number | null, now: number): number {
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1_000));
}

/** How the server compares addresses (contracts' ZEmail trims and lower-cases). */
const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * When "send code" may mail `email` again (epoch ms), or null when it may now: the cooldown runs only for the
 * address the last code went to, so correcting a mistyped address does not wait for it.
 */
export function resendAvailableAt(sent: TCodeSent | null, email: string): number | null {
  return sent && sameAddress(sent.email, email) ? sent.sentAt + RESEND_CODE_COOLDOWN_MS : null;
}
