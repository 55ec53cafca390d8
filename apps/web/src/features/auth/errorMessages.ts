/** The §8 messages of the auth screens, chosen from the server's error code. */
import { ErrorCode } from '@tessera/contracts';
import { HttpError } from '../../lib/http';

const KEYS: Record<string, string> = {
  [ErrorCode.WrongCredentials]: 'auth.errors.wrongCredentials',
  [ErrorCode.AccountLocked]: 'auth.errors.locked',
  [ErrorCode.LoginThrottled]: 'auth.errors.throttled',
  [ErrorCode.CodeInvalid]: 'auth.errors.codeInvalid',
  [ErrorCode.AccountNotFound]: 'auth.errors.notFound',
  [ErrorCode.PasswordIncorrect]: 'auth.errors.passwordIncorrect',
  [ErrorCode.PasswordReused]: 'auth.errors.passwordReused',
  [ErrorCode.EmailTaken]: 'auth.errors.emailTaken',
  [ErrorCode.RateLimited]: 'auth.errors.rateLimited',
  [ErrorCode.Validation]: 'auth.errors.invalid',
  [ErrorCode.QrExpired]: 'auth.errors.qrExpired',
  [ErrorCode.Conflict]: 'auth.errors.qrUsed',
  OFFLINE: 'auth.errors.offline',
  TIMEOUT: 'auth.errors.offline',
};

/** The i18n key of the message for a failed auth call; `fallback` for codes without their own message. */
export function authErrorKey(error: unknown, fallback = 'auth.errors.failed'): string {
  return (error instanceof HttpError && KEYS[error.code]) || fallback;
}

/** Every key {@link authErrorKey} can answer (for the locale test). */
export const AUTH_ERROR_KEYS = [
  ...new Set([...Object.values(KEYS), 'auth.errors.failed', 'auth.errors.resetFailed', 'auth.errors.registerFailed']),
];
