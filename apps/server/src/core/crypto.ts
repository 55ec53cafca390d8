/**
 * Hashing and random secrets. Passwords: argon2id (OWASP). Device secrets, API keys, refresh tokens and codes are
 * 256-bit random values (or short-lived codes), so a SHA-256 digest is enough to store them (as GitHub does for
 * its tokens) and keeps device connects cheap.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id hash of a password (PHC string); argon2id is the library default, OWASP parameters (19 MiB, t=2). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

/** True when `password` matches the argon2id PHC string `phc`; false for a malformed hash. */
export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  try {
    return await verify(phc, password);
  } catch {
    return false;
  }
}

/** Hex SHA-256 of a string. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A URL-safe random secret of `bytes` bytes (default 32 = 256 bits), optionally prefixed (`tsk_`). */
export function randomSecret(prefix = '', bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/** A 6-digit numeric code, uniformly drawn. */
export function randomCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** Constant-time comparison of two hex digests. */
export function digestEquals(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
