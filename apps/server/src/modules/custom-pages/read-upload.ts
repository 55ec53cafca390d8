/**
 * Reads the multipart body of PUT custom-page (spec §7 "PUT multipart htmlFile"): the `title` field and at most one
 * file in `htmlFile`, in any order. The file is buffered up to CUSTOM_PAGE_MAX_BYTES; its name and declared type
 * are ignored (the bytes decide, in page-service).
 */
import {
  CUSTOM_PAGE_FILE_FIELD,
  CUSTOM_PAGE_MAX_BYTES,
  CUSTOM_PAGE_TITLE_FIELD,
  CustomPageErrorCode,
  ErrorCode,
  type TCustomPageFields,
  ZCustomPageFields,
} from '@tessera/contracts';
import type { FastifyRequest } from 'fastify';
import type { TApp } from '../../core/app-type.js';
import { AppError, badRequest } from '../../core/errors.js';

/** Limits handed to @fastify/multipart for this module: one file, a few short fields. */
export const UPLOAD_LIMITS = { fileSize: CUSTOM_PAGE_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 };

/**
 * The validated title and, when sent, the file's bytes.
 * @throws AppError 400 VALIDATION_FAILED (not multipart, unknown field, missing or bad title);
 * 413 CUSTOM_PAGE_TOO_LARGE over CUSTOM_PAGE_MAX_BYTES.
 */
export async function readPageUpload(app: TApp, req: FastifyRequest): Promise<TCustomPageFields & { html?: Buffer }> {
  if (!req.isMultipart()) {
    throw badRequest(`send multipart/form-data with "${CUSTOM_PAGE_TITLE_FIELD}" and a file in "${CUSTOM_PAGE_FILE_FIELD}"`);
  }
  let title: unknown;
  let html: Buffer | undefined;
  for await (const part of req.parts()) {
    if (part.type === 'file' && part.fieldname === CUSTOM_PAGE_FILE_FIELD) {
      html = await bufferFile(app, part);
    } else if (part.type === 'field' && part.fieldname === CUSTOM_PAGE_TITLE_FIELD) {
      if (part.valueTruncated) throw titleError('too long');
      title = part.value;
    } else {
      throw badRequest(`unexpected ${part.type} "${part.fieldname}"`);
    }
  }
  const fields = ZCustomPageFields.safeParse({ title });
  if (!fields.success) throw titleError(fields.error.issues[0]?.message ?? 'invalid');
  return { ...fields.data, html };
}

async function bufferFile(app: TApp, part: { toBuffer(): Promise<Buffer> }): Promise<Buffer> {
  try {
    return await part.toBuffer();
  } catch (err) {
    if (err instanceof app.multipartErrors.RequestFileTooLargeError) {
      throw new AppError(413, CustomPageErrorCode.TooLarge, `the HTML file is over ${CUSTOM_PAGE_MAX_BYTES} bytes`);
    }
    throw err;
  }
}

function titleError(message: string): AppError {
  return badRequest(`invalid ${CUSTOM_PAGE_TITLE_FIELD}: ${message}`, ErrorCode.Validation);
}
