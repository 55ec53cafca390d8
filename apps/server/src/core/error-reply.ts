/**
 * How an error becomes an HTTP answer (ARCHITECTURE.md "Errors", spec §8): `{ code, message, details? }` with the
 * status it calls for, never a stack trace. One mapping for every listener that answers API requests: the main app
 * (app/app.ts) and the device HTTP thread (app/device-http-thread.ts), whose requests are answered by the main thread
 * and whose errors come back as the {@link TErrorReply} this module makes.
 */
import { ErrorCode, type TErrorBody } from '@tessera/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isUniqueViolation } from '../db/sql-helpers.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { AppError } from './errors.js';

/** Seconds a client is told to wait (Retry-After) before resending a request the unavailable database refused. */
export const DB_RETRY_AFTER_S = 5;

/** An error's answer: the status, the body, and the `Retry-After` seconds when the client should wait. */
export interface TErrorReply {
  statusCode: number;
  body: TErrorBody;
  retryAfterS?: number;
}

/**
 * The answer to `err`, or null when it is none of the expected kinds (a defect: the caller logs it and answers 500
 * INTERNAL with no details). Schema validation → 400 VALIDATION naming the first path; {@link AppError} → its own;
 * Fastify's 4xx (body too large 413, rate limit 429, malformed JSON 400) → that status; a unique-index violation (two
 * requests racing past a "taken?" check) → 409 CONFLICT; the database unavailable, late or restarting → 503 with
 * Retry-After {@link DB_RETRY_AFTER_S}.
 */
export function errorReplyOf(err: unknown): TErrorReply | null {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const details = err.validation.map((v) => ({
      path: `${err.validationContext ?? ''}${v.instancePath || ''}`,
      message: v.message ?? 'invalid',
    }));
    return {
      statusCode: 400,
      body: { code: ErrorCode.Validation, message: `invalid ${details[0]?.path || 'input'}: ${details[0]?.message}`, details },
    };
  }
  if (err instanceof AppError) {
    return {
      statusCode: err.statusCode,
      body: { code: err.code, message: err.message, details: err.details },
      retryAfterS: err.retryAfterS,
    };
  }
  const status = (err as { statusCode?: number } | null)?.statusCode;
  if (status && status >= 400 && status < 500) {
    const code = status === 429 ? ErrorCode.RateLimited : status === 413 ? ErrorCode.PayloadTooLarge : ErrorCode.Validation;
    return { statusCode: status, body: { code, message: (err as Error).message } };
  }
  if (isUniqueViolation(err)) {
    return { statusCode: 409, body: { code: ErrorCode.Conflict, message: 'it already exists (changed by a concurrent request)' } };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      statusCode: 503,
      body: { code: ErrorCode.DatabaseUnavailable, message: 'the database is not available; try again shortly' },
      retryAfterS: DB_RETRY_AFTER_S,
    };
  }
  return null;
}

/** The answer to an unexpected error: no details reach the client. */
export const INTERNAL_ERROR_REPLY: TErrorReply = { statusCode: 500, body: { code: ErrorCode.Internal, message: 'internal error' } };

/**
 * Fastify's error handler (`app.setErrorHandler(sendErrorReply)`): answers {@link errorReplyOf}'s reply; logs an
 * unavailable database as a warning and anything unexpected as an error, answered 500 INTERNAL.
 */
export function sendErrorReply(err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = errorReplyOf(err);
  if (!known) request.log.error({ err }, 'unhandled error');
  else if (known.statusCode === 503 && known.body.code === ErrorCode.DatabaseUnavailable && !(err instanceof AppError)) {
    request.log.warn({ err: err.message }, 'database unavailable');
  }
  const { statusCode, body, retryAfterS } = known ?? INTERNAL_ERROR_REPLY;
  if (retryAfterS !== undefined) reply.header('retry-after', String(retryAfterS));
  return reply.status(statusCode).send(body);
}

/** Fastify's not-found handler for API listeners: 404 NOT_FOUND naming the method and path (no query). */
export function sendNoRoute(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.status(404).send({ code: ErrorCode.NotFound, message: `no route ${request.method} ${request.url.split('?')[0]}` });
}
