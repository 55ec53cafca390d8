/**
 * Signing keys for short-lived URL tokens (custom-page views, download links): each purpose has its own random key,
 * kept in a `settings` row created on first use, so every replica signs and verifies with the same key and a token
 * of one purpose (or a bearer token) never passes as another.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { settings } from '../db/schema.js';
import { randomSecret } from './crypto.js';

const keys = new WeakMap<Db, Map<string, Promise<Uint8Array>>>();

/**
 * The HS256 key of `settingKey` (e.g. `download_link_secret`): read from `settings`, created there with 48 random
 * characters when missing; cached per database (a failed read is retried on the next call).
 */
export function purposeKey(db: Db, settingKey: string): Promise<Uint8Array> {
  let byPurpose = keys.get(db);
  if (!byPurpose) {
    byPurpose = new Map();
    keys.set(db, byPurpose);
  }
  let key = byPurpose.get(settingKey);
  if (!key) {
    key = (async () => {
      await db
        .insert(settings)
        .values({ key: settingKey, value: randomSecret('', 48) })
        .onConflictDoNothing();
      const [row] = await db.select().from(settings).where(eq(settings.key, settingKey));
      return new TextEncoder().encode(row.value);
    })();
    key.catch(() => byPurpose.delete(settingKey));
    byPurpose.set(settingKey, key);
  }
  return key;
}
