/**
 * The server's VAPID key pair (RFC 8292): push services accept messages only from the key a subscription was made
 * with, so it must stay the same across restarts and replicas. From VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set;
 * else generated once (web-push) and kept in `settings`, the private key sealed by the secret box (core/secret-box.ts).
 */
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { TConfig } from '../../core/config.js';
import type { TSecretBox } from '../../core/secret-box.js';
import type { Db } from '../../db/client.js';
import { settings } from '../../db/schema.js';

/** The keys (base64url) and the contact push services may use (a `mailto:` or `https:` URL). */
export interface TVapid {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const PUBLIC = 'vapid_public_key';
const PRIVATE = 'vapid_private_key';
const SEAL_CONTEXT = 'vapid:private_key';

/** The VAPID subject: VAPID_SUBJECT, else `mailto:` the address of MAIL_FROM. */
function subjectOf(config: Pick<TConfig, 'vapidSubject' | 'mailFrom'>): string {
  if (config.vapidSubject) return config.vapidSubject;
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom;
  return `mailto:${address.trim()}`;
}

/** Loads (or, the first time, creates and stores) the server's VAPID keys. */
export async function loadVapid(
  db: Db,
  box: TSecretBox,
  config: Pick<TConfig, 'vapidKeys' | 'vapidSubject' | 'mailFrom'>,
): Promise<TVapid> {
  const subject = subjectOf(config);
  if (config.vapidKeys) return { ...config.vapidKeys, subject };
  const fresh = webpush.generateVAPIDKeys();
  // Two replicas starting at once: the first pair written wins, and both read it back.
  await db.transaction(async (tx) => {
    const inserted = await tx.insert(settings).values({ key: PUBLIC, value: fresh.publicKey }).onConflictDoNothing().returning();
    if (inserted.length > 0) await tx.insert(settings).values({ key: PRIVATE, value: box.encrypt(fresh.privateKey, SEAL_CONTEXT) });
  });
  const [pub] = await db.select().from(settings).where(eq(settings.key, PUBLIC));
  const [priv] = await db.select().from(settings).where(eq(settings.key, PRIVATE));
  return { publicKey: pub.value, privateKey: box.decrypt(priv.value, SEAL_CONTEXT), subject };
}
