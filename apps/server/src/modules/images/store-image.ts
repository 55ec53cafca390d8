/**
 * Keeps an uploaded image (spec §7 image/upload, §5 "Image at most 2 MB"): the type is sniffed from the bytes,
 * the bytes go to the `images` table (replicas stay stateless), and the same content of a tenant is stored once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { IMAGE_MIME_TYPES, ImageErrorCode, imageUrlOf, type TImageMime, type TImageUploaded } from '@tessera/contracts';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { images } from '../../db/schema.js';

/**
 * The image type of `bytes` from their magic numbers, whatever the file was called or declared as.
 * @throws AppError 415 IMAGE_TYPE when they are not a PNG, JPEG, WebP or GIF.
 */
export async function sniffImageType(bytes: Buffer): Promise<TImageMime> {
  const mime = (await fileTypeFromBuffer(bytes))?.mime;
  if (!mime || !(IMAGE_MIME_TYPES as readonly string[]).includes(mime)) {
    throw new AppError(415, ImageErrorCode.Type, `not an image of type ${IMAGE_MIME_TYPES.join(', ')}`);
  }
  return mime as TImageMime;
}

/**
 * Stores `bytes` (already within MAX_IMAGE_BYTES) for `tenantId` and answers its URL. Uploading the same content
 * again answers the URL of the first upload.
 * @throws AppError 415 IMAGE_TYPE (see {@link sniffImageType}).
 */
export async function storeImage(db: Db, tenantId: number, bytes: Buffer): Promise<TImageUploaded> {
  const mime = await sniffImageType(bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await db
    .insert(images)
    .values({ id: randomBytes(16).toString('base64url'), tenantId, sha256, mime, bytes })
    .onConflictDoNothing({ target: [images.tenantId, images.sha256] });
  const [row] = await db
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.tenantId, tenantId), eq(images.sha256, sha256)));
  return { image_url: imageUrlOf(row.id) };
}
