/**
 * Webhook signatures (https://developers.line.biz/en/docs/messaging-api/verify-webhook-signature/):
 * `X-Line-Signature` is the base64 HMAC-SHA256 of the raw request body keyed with the channel secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signature LINE sends for `body` (raw bytes) under `channelSecret`. */
export function signLineBody(body: Buffer | string, channelSecret: string): string {
  return createHmac('sha256', channelSecret).update(body).digest('base64');
}

/** True when `signature` (the header value, possibly absent) matches `body`; compared in constant time. */
export function isValidLineSignature(body: Buffer, channelSecret: string, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = createHmac('sha256', channelSecret).update(body).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
