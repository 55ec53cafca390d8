/**
 * Telling "the database is unavailable" apart from every other failure: the API answers it with 503 (retry later)
 * instead of 500, and device authentication with CONNACK 3 "server unavailable" (docs/deployment.md "When the
 * database fails").
 */

/** Socket error codes of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that cannot serve now: class 08 (connection exception), class 53 (insufficient resources,
 * e.g. too many connections), 57014 (statement cancelled by `statement_timeout`), 57P01–57P03 (terminated by an
 * administrator, crash shutdown, cannot connect now: a restart).
 */
const SQLSTATE = /^(08...|53...|57014|57P0[1-3])$/;

/** Messages pg, pg-pool and PGlite give lost, late or closed connections (without a code). */
const MESSAGES = [
  /^Connection terminated/,
  /^Query read timeout$/,
  /^timeout expired$/,
  /^timeout exceeded when trying to connect$/,
  /is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^PGlite is closed$/,
];

/**
 * True when `err` (or an error in its `cause` chain: Drizzle wraps driver errors in DrizzleQueryError) says the
 * database could not be reached, dropped the connection, timed out or is restarting — a failure that heals by
 * waiting, not one caused by the request.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
  }
  return false;
}
