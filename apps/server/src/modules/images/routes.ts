/**
 * `POST /frontstage/v1/image/upload` and `GET /frontstage/v1/images/{id}` (spec §7 "POST image/upload with an image
 * file", §5/§9 image at most 2 MB, §8 "image over 2MB"). Multipart is registered here only, so no other route
 * accepts multipart bodies.
 */
import fastifyMultipart from '@fastify/multipart';
import {
  IMAGE_FIELD,
  IMAGE_TOO_LARGE_MESSAGE,
  ImageErrorCode,
  MAX_IMAGE_BYTES,
  ZErrorBody,
  ZImageIdParam,
  ZImageUploaded,
} from '@tessera/contracts';
import { z } from 'zod';
import type { TApp } from '../../core/app-type.js';
import type { TAppContext } from '../../core/context.js';
import { AppError, badRequest, notFound } from '../../core/errors.js';
import { principalOf, requireVendor } from '../../core/principal.js';
import { findImage } from './read-image.js';
import { storeImage } from './store-image.js';

const tags = ['images'];
/** Bytes bypass the serializer; the schemas document the answers for OpenAPI. */
const IMAGE_RESPONSES = {
  200: z.unknown().describe('the image bytes, content-type the sniffed image type'),
  304: z.null().describe('not modified (If-None-Match matched the ETag)'),
  404: ZErrorBody,
};
/** An image id never changes content, so browsers and proxies may keep it for a year. */
const CACHE_FOREVER = 'public, max-age=31536000, immutable';

/** Registers the image routes (prefix `/frontstage/v1`). */
export async function imageRoutes(app: TApp, ctx: TAppContext): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
  });

  app.post(
    '/image/upload',
    {
      preHandler: requireVendor,
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        description: `multipart/form-data with one file in field "${IMAGE_FIELD}" (PNG, JPEG, WebP or GIF, at most ${MAX_IMAGE_BYTES} bytes)`,
        response: { 201: ZImageUploaded },
      },
    },
    async (req, reply) => {
      const tenantId = principalOf(req).tenantId;
      if (!req.isMultipart()) throw badRequest(`send multipart/form-data with a file in field "${IMAGE_FIELD}"`);
      const file = await req.file();
      if (!file || file.fieldname !== IMAGE_FIELD) throw badRequest(`no file in field "${IMAGE_FIELD}"`);
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch (err) {
        if (err instanceof app.multipartErrors.RequestFileTooLargeError) {
          throw new AppError(413, ImageErrorCode.TooLarge, IMAGE_TOO_LARGE_MESSAGE);
        }
        throw err;
      }
      return reply.status(201).send(await storeImage(ctx.db, tenantId, bytes));
    },
  );

  app.get(
    '/images/:id',
    {
      schema: {
        tags,
        security: [],
        params: ZImageIdParam,
        response: IMAGE_RESPONSES,
        description: 'the image bytes; no token: the id is unguessable',
      },
    },
    async (req, reply) => {
      const image = await findImage(ctx.db, req.params.id);
      if (!image) throw notFound('image');
      const etag = `"${image.sha256}"`;
      reply
        .header('cache-control', CACHE_FOREVER)
        .header('etag', etag)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox");
      if (req.headers['if-none-match'] === etag) return reply.status(304).send(null);
      return reply.type(image.mime).send(image.bytes);
    },
  );
}
