/**
 * Access tokens: HS256 JWTs (jose) with the spec's payload `tid, email, level, fea` (§3) plus `sub` = account id.
 * The signing secret is JWT_SECRET, or one generated on first start and kept in `settings` so that tokens
 * survive a restart and every replica agrees.
 */
import { webcrypto } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { errors, jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_S, ZTokenPayload, type TTokenPayload } from '@tessera/contracts';
import type { Db } from '../db/client.js';
import { settings } from '../db/schema.js';
import { randomSecret } from './crypto.js';

/** Why a token was refused. */
export type TTokenFailure = 'expired' | 'invalid';

/**
 * The HMAC-SHA-256 key of `secret` (its UTF-8 bytes, RFC 7518 §3.2), imported once: handed raw bytes, jose imports
 * the key again on every sign and verify, which cost each request 0.06–0.28 ms of CPU against 0.03–0.04 ms for the
 * verify itself (docs/dashboard.md "Opening a page").
 */
export function importHmacKey(secret: string): Promise<webcrypto.CryptoKey> {
  return webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

/**
 * Tokens remembered as verified. A console page sends the same token with each of its ~30 requests, and verifying
 * one costs ~0.2 ms of CPU (jose's WebCrypto HMAC) — about a tenth of the server's CPU for a 12-widget page.
 */
export const VERIFIED_TOKENS_MAX = 5_000;

/** Signs and verifies access tokens. */
export class TokenService {
  /** Token → its verified payload, oldest first (a Map keeps insertion order). */
  private readonly verified = new Map<string, TTokenPayload>();

  private constructor(private readonly key: webcrypto.CryptoKey) {}

  /** Loads the secret (env, else `settings`, else a new one saved there) and imports its key once. */
  static async create(db: Db, envSecret?: string): Promise<TokenService> {
    if (envSecret) return new TokenService(await importHmacKey(envSecret));
    const fresh = randomSecret('', 48);
    await db.insert(settings).values({ key: 'jwt_secret', value: fresh }).onConflictDoNothing();
    const [row] = await db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
    return new TokenService(await importHmacKey(row.value));
  }

  /** Signs an access token for `payload` (with its `act` claim when acting as the account), valid `ttlS` seconds. */
  sign(payload: Omit<TTokenPayload, 'exp'>, ttlS = ACCESS_TOKEN_TTL_S): Promise<string> {
    const claims = { tid: payload.tid, email: payload.email, level: payload.level, fea: payload.fea };
    return new SignJWT(payload.act ? { ...claims, act: payload.act } : claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(payload.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlS)
      .sign(this.key);
  }

  /**
   * Verifies `token` (RFC 7519 §7.2, HS256 only); answers the payload or why it failed. A token without `exp` or
   * `sub` is invalid even when its signature is right: every token this service signs has both, and one without an
   * expiry would never end. A token verified before is answered from memory (at most VERIFIED_TOKENS_MAX, oldest
   * forgotten first) — the same bytes under the same key verify the same way — with its expiry checked again, as jose
   * checks it (expired once `exp` ≤ now, in whole seconds). Never throws.
   */
  async verify(token: string): Promise<{ ok: true; payload: TTokenPayload } | { ok: false; reason: TTokenFailure }> {
    const known = this.verified.get(token);
    if (known) {
      if ((known.exp ?? 0) > Math.floor(Date.now() / 1000)) return { ok: true, payload: known };
      this.verified.delete(token);
      return { ok: false, reason: 'expired' };
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
      const parsed = ZTokenPayload.safeParse(payload);
      if (!parsed.success) return { ok: false, reason: 'invalid' };
      if (this.verified.size >= VERIFIED_TOKENS_MAX) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, parsed.data);
      return { ok: true, payload: parsed.data };
    } catch (err) {
      return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
