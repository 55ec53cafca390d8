/**
 * The text rule at the HTTP boundary (docs/decisions/api-input.md "Text"): a request whose path parameters, query or
 * JSON body holds NUL (U+0000) in any string is refused with 400 VALIDATION_FAILED before validation, for every
 * route at once — PostgreSQL `text` cannot store NUL, so such a value would otherwise fail in the database (a 500)
 * on whichever route forgot to refuse it. The rule itself is the contracts' `findNul`. A body kept as bytes (a
 * Buffer: the device APIs, whose parsers refuse or replace NUL themselves) is not text and is not searched.
 */
import { ErrorCode, findNul } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

/** Adds the NUL refusal to every route of `app`. */
export function registerInputGuard(app: FastifyInstance): void {
  // A callback hook: an async one costs every request a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    // A body kept as bytes (device APIs, uploads) holds no strings; walking it would visit every byte as a key.
    const body = Buffer.isBuffer(request.body) ? null : request.body;
    const at = findNul(request.params, 'params') ?? findNul(request.query, 'querystring') ?? findNul(body, 'body');
    done(at === null ? undefined : new AppError(400, ErrorCode.Validation, `invalid ${at}: text may not contain NUL (U+0000)`));
  });
}
