/**
 * Error codes of the API. The spec's own (§8) keep their names; the rest are Tessera's and stable. In a module of its
 * own, without zod: the console's HTTP client and login page read the codes without downloading zod (errors.ts
 * re-exports them beside {@link ZErrorBody}).
 */

export const ErrorCode = {
  /** §8: expired access token: the console refreshes once, then retries. */
  TokenExpired: 'UAE0004',
  /** §8: not retried (refresh token invalid, revoked or reused). */
  RefreshInvalid: 'UAE0007',
  /** §8: QR login code expired. */
  QrExpired: 'UAE0009',
  /** 429: this client address holds as many waiting QR-login streams as a server allows; `Retry-After` seconds. */
  QrLoginTooManyStreams: 'QR_LOGIN_TOO_MANY_STREAMS',
  /** 503: the server holds as many waiting QR-login streams as it allows, from all addresses; `Retry-After` seconds. */
  QrLoginBusy: 'QR_LOGIN_BUSY',
  /** §8: authorisation expired/changed: refresh once, then retry. */
  AuthzExpired: 'AUTHZ-E001',
  Unauthenticated: 'AUTH_REQUIRED',
  WrongCredentials: 'AUTH_WRONG_CREDENTIALS',
  AccountLocked: 'AUTH_ACCOUNT_LOCKED',
  /** Too many wrong passwords from this client address for this account: wait `Retry-After` seconds. */
  LoginThrottled: 'AUTH_LOGIN_THROTTLED',
  /**
   * 403: the route changes the account's credentials (API keys, password, acting as another account), which only a
   * person signed in with a password (a JWT session) may do; an API key may not.
   */
  SessionRequired: 'AUTH_SESSION_REQUIRED',
  AccountNotFound: 'AUTH_ACCOUNT_NOT_FOUND',
  CodeInvalid: 'AUTH_CODE_INVALID',
  PasswordIncorrect: 'AUTH_PASSWORD_INCORRECT',
  PasswordReused: 'AUTH_PASSWORD_REUSED',
  Forbidden: 'FORBIDDEN',
  /** The caller sees the device, but its project role there lacks the permission the route needs. */
  DevicePermissionDenied: 'DEVICE_PERMISSION_DENIED',
  NotFound: 'NOT_FOUND',
  Validation: 'VALIDATION_FAILED',
  Conflict: 'CONFLICT',
  EmailTaken: 'EMAIL_TAKEN',
  RangeTooLong: 'RANGE_TOO_LONG',
  InUse: 'IN_USE',
  RateLimited: 'RATE_LIMITED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  Internal: 'INTERNAL',
  /** Remote control: the device is not connected (embedded broker), no reply in time, or it answered ok:false. */
  DeviceOffline: 'DEVICE_OFFLINE',
  DeviceTimeout: 'DEVICE_TIMEOUT',
  DeviceError: 'DEVICE_ERROR',
  /** The MQTT broker (or the server's connection to it) is down. */
  BrokerUnavailable: 'BROKER_UNAVAILABLE',
  /** An authorisation request without the proof its project's method asks for (docs/decisions/authorisation.md). */
  AuthzProofRequired: 'AUTHZ_PROOF_REQUIRED',
  /** An authorisation request whose proof (QR claim code, BLE code) does not match the device. */
  AuthzProofInvalid: 'AUTHZ_PROOF_INVALID',
  /** An authorisation request for what the account already holds. */
  AuthzAlreadyGranted: 'AUTHZ_ALREADY_GRANTED',
  /** A second pending request for the same target, or an answer to a request no longer in the state it needs. */
  AuthzState: 'AUTHZ_STATE',
  /**
   * 403: a device's ThingsBoard claim (`POST /api/v1/{token}/claim`) — Tessera gives a user a device only through an
   * authorisation request its owner allows (docs/decisions/device-apis.md "Claiming"); not worth retrying.
   */
  DeviceClaimRefused: 'DEVICE_CLAIM_REFUSED',
  /** 403: the tenant's plan does not include this (a kind of role) or its limit is reached (`GET authz/package-policy`). */
  PlanLimit: 'PLAN_LIMIT',
  /** 503: the database is down, late or restarting; the request may succeed if sent again later. */
  DatabaseUnavailable: 'DB_UNAVAILABLE',
} as const;

/** One of the {@link ErrorCode} values. */
export type TErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
