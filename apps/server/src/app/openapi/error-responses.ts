/**
 * Error responses of the OpenAPI document (spec §8 error catalogue, ARCHITECTURE.md "Errors"): which statuses an
 * operation answers by its kind (input, path ids, login, role guard, rate limit), merged with the catalogue's own
 * per operation, each response naming its codes and showing an example body.
 */
import { ErrorCode } from '@tessera/contracts';
import type { TErrorCodesByStatus } from './operation-doc.js';

/** The kind of an operation, as far as its errors go. */
export interface TOperationKind {
  /** It takes parameters or a body: invalid input answers 400. */
  hasInput: boolean;
  /** It takes a body: over the body limit answers 413. */
  hasBody: boolean;
  /** Its path names an entity (`{id}`): one that does not exist, or another tenant's, answers 404. */
  hasPathParams: boolean;
  /** No login needed (`security: []`): no 401. */
  isPublic: boolean;
  /** A role guard stands before it (vendor, admin, a section permission): 403. */
  mayForbid: boolean;
  /** It has its own rate limit: 429. */
  isRateLimited: boolean;
}

/** The statuses and codes every operation of `kind` may answer. */
export function derivedErrors(kind: TOperationKind): TErrorCodesByStatus {
  const errors: TErrorCodesByStatus = { 503: [ErrorCode.DatabaseUnavailable] };
  if (kind.hasInput) errors[400] = [ErrorCode.Validation];
  if (kind.hasBody) errors[413] = [ErrorCode.PayloadTooLarge];
  // An id in the path, the query or the body that names nothing the caller may see answers 404.
  if (kind.hasPathParams || (kind.hasInput && !kind.isPublic)) errors[404] = [ErrorCode.NotFound];
  if (!kind.isPublic) errors[401] = [ErrorCode.Unauthenticated, ErrorCode.TokenExpired];
  if (kind.mayForbid) errors[403] = [ErrorCode.Forbidden];
  if (kind.isRateLimited) errors[429] = [ErrorCode.RateLimited];
  return errors;
}

/** Both lists of codes for each status, without repeats. */
export function mergeErrors(a: TErrorCodesByStatus, b: TErrorCodesByStatus): TErrorCodesByStatus {
  const merged: TErrorCodesByStatus = { ...a };
  for (const [status, codes] of Object.entries(b)) {
    merged[Number(status)] = [...new Set([...(merged[Number(status)] ?? []), ...(codes ?? [])])];
  }
  return merged;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'The request is invalid',
  401: 'Not logged in, or the token has expired',
  403: 'The caller may not do this',
  404: 'No such entity (or another tenant’s: the two are not told apart)',
  409: 'Conflicts with the current state',
  410: 'The file is gone',
  413: 'The body or file is too large',
  415: 'The file type is not accepted',
  416: 'The byte range cannot be served',
  422: 'The request is well-formed but cannot be carried out',
  423: 'The account is locked',
  429: 'Too many requests: wait Retry-After seconds',
  502: 'An upstream service (the device, LINE, the model endpoint) failed',
  503: 'A dependency (the database, the broker) is unavailable: retry after Retry-After seconds',
  504: 'The device did not answer in time',
};

/** The JSON Schema of every error body (`ZErrorBody` of @tessera/contracts), as components.schemas.ErrorBody. */
export const ZERROR_BODY_SCHEMA = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', description: 'A stable error code (spec §8 and ErrorCode of @tessera/contracts)' },
    message: { type: 'string', description: 'A sentence for a person; never a stack trace' },
    details: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' }, position: { type: 'integer' } },
      },
    },
  },
} as const;

/** The response object of one error status: what it means, its codes, an example body per code. */
export function errorResponse(status: number, codes: readonly string[]) {
  const text = STATUS_TEXT[status] ?? 'Error';
  return {
    description: codes.length ? `${text}. Codes: ${codes.join(', ')}.` : `${text}.`,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorBody' },
        examples: Object.fromEntries(codes.map((code) => [code, { value: { code, message: text.toLowerCase() } }])),
      },
    },
  };
}
