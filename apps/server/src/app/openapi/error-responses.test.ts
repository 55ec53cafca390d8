import { describe, expect, it } from 'vitest';
import { derivedErrors, errorResponse, mergeErrors } from './error-responses.js';

const kind = { hasInput: false, hasBody: false, hasPathParams: false, isPublic: false, mayForbid: false, isRateLimited: false };

describe('derivedErrors', () => {
  it('gives a logged-in read without input only 401 and 503', () => {
    expect(Object.keys(derivedErrors(kind))).toEqual(['401', '503']);
  });
  it('adds 400, 404 and 413 for a body, 403 behind a role guard and 429 under a rate limit', () => {
    const errors = derivedErrors({ ...kind, hasInput: true, hasBody: true, mayForbid: true, isRateLimited: true });
    expect(Object.keys(errors).sort()).toEqual(['400', '401', '403', '404', '413', '429', '503']);
    expect(errors[401]).toEqual(['AUTH_REQUIRED', 'UAE0004']);
  });
  it('gives a public route with input no 401 and no 404 unless its path names an entity', () => {
    expect(derivedErrors({ ...kind, isPublic: true, hasInput: true })).not.toHaveProperty('401');
    expect(derivedErrors({ ...kind, isPublic: true, hasInput: true })).not.toHaveProperty('404');
    expect(derivedErrors({ ...kind, isPublic: true, hasInput: true, hasPathParams: true })).toHaveProperty('404');
  });
});

describe('mergeErrors', () => {
  it('joins the codes of a status without repeating one', () => {
    expect(mergeErrors({ 400: ['A'], 503: ['D'] }, { 400: ['A', 'B'], 409: ['C'] })).toEqual({ 400: ['A', 'B'], 409: ['C'], 503: ['D'] });
  });
});

describe('errorResponse', () => {
  it('names the codes in its description and shows one example body per code', () => {
    const response = errorResponse(409, ['IN_USE', 'CONFLICT']);
    expect(response.description).toBe('Conflicts with the current state. Codes: IN_USE, CONFLICT.');
    expect(Object.keys(response.content['application/json'].examples)).toEqual(['IN_USE', 'CONFLICT']);
    expect(response.content['application/json'].examples.IN_USE.value.code).toBe('IN_USE');
  });
});
