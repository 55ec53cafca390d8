/**
 * Application errors → `{ code, message }` responses (ARCHITECTURE.md "Errors"). Domain functions throw
 * {@link AppError}; the error handler in app.ts presents it. Anything else becomes a 500 without details.
 */
import { ErrorCode, type TErrorBody, type TErrorCode } from '@tessera/contracts';

/** An error with an HTTP status and a stable code, safe to show to the client; `details` name items (e.g. lines). */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: TErrorCode | string,
    message: string,
    readonly details?: TErrorBody['details'],
    /** Seconds the client should wait before trying again: sent as the `Retry-After` header (RFC 9110 §10.2.3). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** 404 for a missing (or other tenant's) entity: the two are indistinguishable on purpose. */
export const notFound = (what: string) => new AppError(404, ErrorCode.NotFound, `${what} not found`);
/** 403 for a caller lacking the role or permission. */
export const forbidden = (message = 'you may not do this') => new AppError(403, ErrorCode.Forbidden, message);
/** 400 for input that passed the schema but breaks a rule. */
export const badRequest = (message: string, code: string = ErrorCode.Validation) => new AppError(400, code, message);
/** 409 for a uniqueness or state conflict. */
export const conflict = (message: string, code: string = ErrorCode.Conflict) => new AppError(409, code, message);
/** 401 for a missing or bad credential. */
export const unauthorized = (message = 'log in first', code: string = ErrorCode.Unauthenticated) => new AppError(401, code, message);
