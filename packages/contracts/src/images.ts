/**
 * Uploaded images (spec §7 `POST /frontstage/v1/image/upload`, §5/§9 "Image at most 2 MB", §8 "image over 2MB").
 * The server keeps the bytes and serves them at {@link imageUrlOf}; a product stores that URL.
 */
import { z } from 'zod';
import { API } from './api-paths.js';
import { MAX_IMAGE_BYTES } from './limits.js';

/** The multipart field that carries the file (spec §7 "with an image file"). */
export const IMAGE_FIELD = 'image';

/** The image types accepted, decided from the file's bytes (never its name or declared type). SVG is not one: it can carry script. */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type TImageMime = (typeof IMAGE_MIME_TYPES)[number];

/** Error codes of the upload: 413 over {@link MAX_IMAGE_BYTES}, 415 not a real image of {@link IMAGE_MIME_TYPES}. */
export const ImageErrorCode = { TooLarge: 'IMAGE_TOO_LARGE', Type: 'IMAGE_TYPE' } as const;

/** §8 "image over 2MB": the message of a 413 IMAGE_TOO_LARGE answer (the console shows its own translation). */
export const IMAGE_TOO_LARGE_MESSAGE = `image over ${MAX_IMAGE_BYTES / 1024 / 1024}MB`;

/** An image id: 128 random bits in base64url (22 characters), unguessable, so GET needs no token (an <img> sends none). */
export const ZImageId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22}$/, 'not an image id')
  .meta({ examples: ['Qm9vdHN0cmFwSW1hZ2UxMj'] });
/** `:id` of GET images/{id}. */
export const ZImageIdParam = z.object({ id: ZImageId });

/** The URL (path) an image is served at. */
export const imageUrlOf = (id: string) => `${API.frontstage}/images/${id}`;

/** A product's `image_url`: null, or the URL of an image uploaded by the same tenant. */
export const ZImageUrl = z
  .string()
  .regex(/^\/frontstage\/v1\/images\/[A-Za-z0-9_-]{22}$/, 'not an uploaded image URL')
  .meta({ examples: ['/frontstage/v1/images/Qm9vdHN0cmFwSW1hZ2UxMj'] });

/** The id inside an {@link ZImageUrl}. */
export const imageIdOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** 201 of image/upload. */
export const ZImageUploaded = z.object({ image_url: ZImageUrl });
export type TImageUploaded = z.infer<typeof ZImageUploaded>;

/** True when a file of `bytes` may be uploaded (the console checks before sending; the server enforces). */
export const isImageSizeAllowed = (bytes: number) => bytes <= MAX_IMAGE_BYTES;
