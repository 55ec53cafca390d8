/** Auth screens show the §8 message of the server's code, in both languages. */
import { readFileSync } from 'node:fs';
import { ErrorCode } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http';
import { flattenKeys } from '../../i18n/resources';
import { AUTH_ERROR_KEYS, authErrorKey } from './errorMessages';

const err = (code: string) => new HttpError(401, code, 'x');

describe('authErrorKey', () => {
  it('maps wrong password, locked account and expired code to their own messages', () => {
    expect(authErrorKey(err(ErrorCode.WrongCredentials))).toBe('auth.errors.wrongCredentials');
    expect(authErrorKey(err(ErrorCode.AccountLocked))).toBe('auth.errors.locked');
    expect(authErrorKey(err(ErrorCode.CodeInvalid))).toBe('auth.errors.codeInvalid');
  });
  it('maps an email that already has an account and a rate limit to their own messages (sign-up)', () => {
    expect(authErrorKey(new HttpError(409, ErrorCode.EmailTaken, 'x'))).toBe('auth.errors.emailTaken');
    expect(authErrorKey(new HttpError(429, ErrorCode.RateLimited, 'x'))).toBe('auth.errors.rateLimited');
  });
  it('maps a connection failure to the connection message', () => {
    expect(authErrorKey(new HttpError(0, 'OFFLINE', 'x'))).toBe('auth.errors.offline');
  });
  it('falls back for unknown codes and non-HTTP errors', () => {
    expect(authErrorKey(err('SOMETHING'))).toBe('auth.errors.failed');
    expect(authErrorKey(new Error('x'), 'auth.errors.resetFailed')).toBe('auth.errors.resetFailed');
  });
  it.each(['zh-TW', 'en'])('every message exists in %s', (lang) => {
    const keys = flattenKeys(JSON.parse(readFileSync(new URL(`./locales/${lang}.json`, import.meta.url), 'utf8')));
    expect(AUTH_ERROR_KEYS.filter((k) => !(k in keys))).toEqual([]);
  });
});
