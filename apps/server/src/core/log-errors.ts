/**
 * How the server's log writes an error (pino's `err` serializer; docs/deployment.md "Logs"). pino's standard fields,
 * except what a failed database query carries: Drizzle's DrizzleQueryError holds the whole statement and every
 * parameter in its message and in `query`/`params` — an ingest batch's thousands of values, devices' payloads, hashes
 * — which made a single warn line 160 KB and put data into the log. Here the parameters are left out, the statement
 * and the message are cut to {@link LOG_ERROR_TEXT_MAX} characters, and the database's own error under it (its
 * SQLSTATE and message) is kept as `db`.
 */
import { stdSerializers } from 'pino';

/** The most characters of an error's message, stack or statement a log line keeps. */
export const LOG_ERROR_TEXT_MAX = 1_000;

/** `text` cut to {@link LOG_ERROR_TEXT_MAX} characters, saying how long it was. */
function cut(text: string): string {
  return text.length > LOG_ERROR_TEXT_MAX ? `${text.slice(0, LOG_ERROR_TEXT_MAX)}… (${text.length} characters)` : text;
}

/** The first error of `err`'s cause chain (itself included) with a string `code`: the driver's (SQLSTATE). */
function driverError(err: Error): { code: string; message: string } | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return { code, message: cut(String((e as { message?: unknown }).message ?? '')) };
  }
  return null;
}

/**
 * Serializes `err` for a log line: pino's standard error object without query parameters, with message, stack and
 * statement cut to {@link LOG_ERROR_TEXT_MAX} characters and the driver's error as `db` (`{code, message}`) when
 * there is one. Anything not an Error is logged as it is.
 */
export function serializeLoggedError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const { params: _params, ...out } = stdSerializers.err(err) as ReturnType<typeof stdSerializers.err> & Record<string, unknown>;
  const db = driverError(err);
  const query = (err as { query?: unknown }).query;
  if (typeof query === 'string') {
    // Drizzle's message is "Failed query: <statement>\nparams: <every value>": said again without the values.
    out.query = cut(query);
    out.message = `Failed query: ${out.query}${db ? `: ${db.message}` : ''}`;
    if (typeof out.stack === 'string') out.stack = out.stack.replace(/^[\s\S]*?(?=\n\s+at )/, `${err.name}: ${out.message}`);
  }
  if (typeof out.message === 'string') out.message = cut(out.message);
  if (typeof out.stack === 'string') out.stack = cut(out.stack);
  return db ? { ...out, db } : out;
}
