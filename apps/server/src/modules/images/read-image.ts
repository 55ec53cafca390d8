/** Reads stored images: for serving (by id alone) and for checking a product's image belongs to its tenant. */
import { and, eq } from 'drizzle-orm';
import { imageIdOf } from '@tessera/contracts';
import { notFound } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { images } from '../../db/schema.js';

/** A stored image: its type, content hash (the ETag) and bytes. */
export interface TStoredImage {
  mime: string;
  sha256: string;
  bytes: Buffer;
}

/** The image `id`, whoever uploaded it (the id is the secret), or null. */
export async function findImage(db: Db, id: string): Promise<TStoredImage | null> {
  const [row] = await db.select({ mime: images.mime, sha256: images.sha256, bytes: images.bytes }).from(images).where(eq(images.id, id));
  return row ?? null;
}

/**
 * Checks that `imageUrl` (a ZImageUrl, or null/undefined for none) names an image uploaded by `tenantId`.
 * @throws AppError 404 when it does not, the same answer as for another tenant's id.
 */
export async function assertTenantImage(db: Db, tenantId: number, imageUrl: string | null | undefined): Promise<void> {
  if (!imageUrl) return;
  const [row] = await db
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.id, imageIdOf(imageUrl)), eq(images.tenantId, tenantId)));
  if (!row) throw notFound('image');
}
