/**
 * Encryption of third-party secrets kept in the database (LINE channel secret and access token): AES-256-GCM
 * (node:crypto) with a fresh 96-bit IV per value and a context string as additional data, so a ciphertext copied to
 * another tenant's row or field does not decrypt. The key is HKDF-SHA256 of SECRETS_KEY, or of a random secret
 * generated on first start and kept in `settings` (like the JWT secret) so that every replica agrees.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { settings } from '../db/schema.js';
import { randomSecret } from './crypto.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Encrypts and decrypts short secrets bound to a context (e.g. `line:12:access_token`). */
export interface TSecretBox {
  /** `v1.<base64url(iv | tag | ciphertext)>`. */
  encrypt(plaintext: string, context: string): string;
  /** @throws Error when the value was not made by this key for this context, or was altered. */
  decrypt(sealed: string, context: string): string;
}

/** A box over the 32-byte key derived from `secret` (any string of ≥ 32 characters). */
export function createSecretBox(secret: string): TSecretBox {
  const key = Buffer.from(hkdfSync('sha256', secret, 'tessera', 'tessera/secret-box/v1', 32));
  return {
    encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    decrypt(sealed, context) {
      const [version, data] = sealed.split('.');
      if (version !== VERSION || !data) throw new Error('unknown secret format');
      const raw = Buffer.from(data, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

const boxes = new WeakMap<Db, Promise<TSecretBox>>();

/**
 * The box of this deployment: from `envSecret` (SECRETS_KEY) when set, else from the generated `secrets_key`
 * setting (created on first use). Memoised per database.
 */
export function secretBoxFor(db: Db, envSecret?: string): Promise<TSecretBox> {
  if (envSecret) return Promise.resolve(createSecretBox(envSecret));
  let box = boxes.get(db);
  if (!box) {
    box = (async () => {
      await db
        .insert(settings)
        .values({ key: 'secrets_key', value: randomSecret('', 32) })
        .onConflictDoNothing();
      const [row] = await db.select().from(settings).where(eq(settings.key, 'secrets_key'));
      return createSecretBox(row.value);
    })();
    box.catch(() => boxes.delete(db));
    boxes.set(db, box);
  }
  return box;
}

/** `••••` and the last 4 characters of `secret` (what the console shows of a stored secret). */
export function maskSecret(secret: string): string {
  return `••••${secret.slice(-4)}`;
}
