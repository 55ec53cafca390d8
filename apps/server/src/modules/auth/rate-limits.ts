/**
 * Request rate limits of the public auth routes, per client IP and, for routes that send mail, per target email. They
 * bound password guessing across accounts (the throttles of password-throttle.ts bound it per account), code guessing
 * across accounts (verification.ts bounds it per code), keep one address's flood off the database, and stop the
 * server from being used to flood a mailbox. Counted in memory, per replica.
 */
export const RATE_LIMITS = {
  /** POST login: attempts per IP. */
  loginPerIp: { max: 30, timeWindow: 60_000 },
  /** verify-email and forgot-pwd: requests per IP. */
  mailPerIp: { max: 20, timeWindow: 60_000 },
  /** verify-email and forgot-pwd together: mails per target address. */
  mailPerEmail: { max: 5, timeWindow: 10 * 60_000 },
  /** reset-pwd and register/aiot, the routes that check a mailed code: requests per IP, each route on its own. */
  codePerIp: { max: 20, timeWindow: 60_000 },
} as const;
