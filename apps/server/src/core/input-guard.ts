/**
 * The text rule at the HTTP boundary (docs/decisions/api-input.md "Text"): a request whose path parameters, query or
 * JSON body holds NUL (U+0000) in any string is refused with 400 VALIDATION_FAILED before validation, for every
 * route at once — PostgreSQL `text` cannot store NUL, so such a value would otherwise fail in the database (a 500)
 * on whichever route forgot to refuse it. The rule itself is the contracts' `findNul`.
 */
import { ErrorCode, findNul } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

/** Adds the NUL refusal to every route of `app`. */
export function registerInputGuard(app: FastifyInstance): void {
  // A callback hook: an async one costs every request a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const at = findNul(request.params, 'params') ?? findNul(request.query, 'querystring') ?? findNul(request.body, 'body');
    done(at === null ? undefined : new AppError(400, ErrorCode.Validation, `invalid ${at}: text may not contain NUL (U+0000)`));
  });
}
