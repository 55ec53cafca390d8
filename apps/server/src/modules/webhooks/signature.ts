/**
 * Webhook signatures (docs/decisions/webhooks.md): `v1=` and the hex HMAC-SHA256, keyed by the webhook's secret, of
 * `"<timestamp>.<body>"` with the timestamp in epoch seconds — the scheme Stripe and GitHub receivers already know how
 * to check. The timestamp travels in its own header, so a receiver refuses a replayed delivery by its age.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The `x-tessera-signature` value of `body` sent at `timestampS` (epoch seconds) with `secret`. */
export function signWebhook(secret: string, timestampS: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestampS}.${body}`).digest('hex')}`;
}

/**
 * What a receiver does: true when `signature` is `body`'s at `timestampS` and the timestamp is at most `toleranceS`
 * seconds from `nowS`. Constant-time compare.
 */
export function isValidWebhookSignature(opts: {
  secret: string;
  timestampS: number;
  body: string;
  signature: string;
  nowS: number;
  toleranceS?: number;
}): boolean {
  if (Math.abs(opts.nowS - opts.timestampS) > (opts.toleranceS ?? 300)) return false;
  const expected = Buffer.from(signWebhook(opts.secret, opts.timestampS, opts.body));
  const given = Buffer.from(opts.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
