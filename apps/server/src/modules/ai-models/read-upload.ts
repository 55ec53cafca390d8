/**
 * Reading a revision upload from its multipart request (docs/decisions/ai.md "Uploads"): the `notes` field (sent
 * before the file) and the file, streamed. A request declaring more than the limit is refused before anything is
 * read; one that sends more than it declared (or declares nothing) fails at the limit. Either way the rest of the
 * request is read and dropped, so the client gets the 413 instead of a broken connection.
 */
import { PassThrough, type Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AI_MODEL_FILE_FIELD, AI_MODEL_NOTES_FIELD, MAX_MODEL_BYTES, ZAiModelRevisionNotes } from '@tessera/contracts';
import { badRequest } from '../../core/errors.js';
import { cleanFileName } from './file-name.js';
import { modelTooLarge, type TRevisionUpload } from './upload-revision.js';

/** Room for the multipart framing and the notes field beside the file, in bytes. */
export const MULTIPART_SLACK_BYTES = 64 * 1024;

/**
 * The file's bytes up to MAX_MODEL_BYTES: past them the stream fails with 413 and the rest of the file is drained.
 * A client that goes away fails it too.
 */
function limitedFile(part: MultipartFile): Readable {
  const out = new PassThrough();
  part.file.on('error', (err) => out.destroy(err));
  part.file.once('limit', () => {
    part.file.unpipe(out);
    out.destroy(modelTooLarge());
  });
  // Whatever stops the consumer early (the limit, a store failure), the request is still read to its end.
  out.on('close', () => {
    if (!part.file.readableEnded) part.file.resume();
  });
  part.file.pipe(out);
  return out;
}

/** The value of the multipart text field `name` read before the file, if any. */
function fieldBefore(part: MultipartFile, name: string): { value: string; truncated: boolean } | undefined {
  const field = part.fields[name];
  const first = Array.isArray(field) ? field[0] : field;
  if (first?.type !== 'field') return undefined;
  return { value: String(first.value), truncated: first.valueTruncated };
}

/**
 * The upload of POST ai-models/{id}/revisions: multipart/form-data with an optional `notes` field, then the file in
 * field `file`.
 * @throws AppError 413 AI_MODEL_TOO_LARGE when Content-Length is over the limit; 400 when the body is not multipart,
 *   holds no file in `file`, or its notes are too long.
 */
export async function readRevisionUpload(request: FastifyRequest): Promise<TRevisionUpload> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_MODEL_BYTES + MULTIPART_SLACK_BYTES) throw modelTooLarge();
  if (!request.isMultipart()) throw badRequest(`send multipart/form-data with the file in field "${AI_MODEL_FILE_FIELD}"`);
  const part = await request.file();
  if (!part || part.fieldname !== AI_MODEL_FILE_FIELD) {
    part?.file.resume();
    throw badRequest(`no file in field "${AI_MODEL_FILE_FIELD}" (send "${AI_MODEL_NOTES_FIELD}" before it)`);
  }
  const notesField = fieldBefore(part, AI_MODEL_NOTES_FIELD);
  const notes = ZAiModelRevisionNotes.safeParse(notesField?.value ?? '');
  if (!notes.success || notesField?.truncated) {
    part.file.resume();
    throw badRequest(`invalid ${AI_MODEL_NOTES_FIELD}: ${notes.success ? 'too long' : notes.error.issues[0].message}`);
  }
  return { file: limitedFile(part), fileName: cleanFileName(part.filename), notes: notes.data };
}
