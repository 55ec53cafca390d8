/**
 * The console's security headers (helmet's): a strict Content-Security-Policy for the console and API, and the two
 * headers that only make sense over HTTPS — `upgrade-insecure-requests` and HSTS — sent only when the request came
 * over HTTPS (directly, or through a proxy trusted by TRUST_PROXY that says `X-Forwarded-Proto: https`). Sent over
 * plain HTTP, `upgrade-insecure-requests` makes a browser that opened `http://<address>:8080/` fetch every script
 * over https, which nothing serves, and the console stays blank (browsers exempt only `localhost`).
 *
 * The headers are helmet's, computed once when the app is built (helmet's middleware run against a recording
 * response), not per request: `@fastify/helmet` builds a new helmet — parsing and validating every CSP directive —
 * on each request, a third of what a request answering 404 cost (docs/connectivity.md "What one HTTP request costs").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route sets its own security headers (a custom page, a sandboxed document); HSTS is still sent. */
    securityHeaders?: false;
  }
}

/** HSTS sent over HTTPS: half a year, subdomains included (helmet's default policy). */
export const HSTS_HEADER = 'max-age=15552000; includeSubDomains';

/** Header name (lower case) → value. */
export type THeaderSet = Readonly<Record<string, string>>;

/** The headers helmet's middleware sets with `options` (names in lower case). @throws Error on an invalid option. */
export function helmetHeaders(options: HelmetOptions): THeaderSet {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/** The console's helmet options; `upgradeInsecure` adds `upgrade-insecure-requests` to the CSP (HTTPS only). */
function consoleHelmetOptions(pagesOrigin: string | undefined, upgradeInsecure: boolean): HelmetOptions {
  return {
    hsts: false,
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        // Custom pages are framed from this host, or from PAGES_ORIGIN when they have their own (modules/custom-pages).
        'frame-src': ["'self'", ...(pagesOrigin ? [pagesOrigin] : [])],
        'upgrade-insecure-requests': upgradeInsecure ? [] : null,
      },
    },
  };
}

/**
 * Sends the console's security headers on every response of `app`. `pagesOrigin` (PAGES_ORIGIN) may frame custom
 * pages. A route with `config: { securityHeaders: false }` sets its own (custom pages); a route that sets its own
 * Content-Security-Policy (uploaded images) replaces the console's. Over HTTPS, HSTS is sent on every response and
 * `upgrade-insecure-requests` is in every CSP, a route's own included — checked when the answer is sent, which is
 * needed only when requests can arrive over HTTPS at all (`behindProxy`: TRUST_PROXY is set; this server itself
 * listens on plain HTTP).
 */
export function registerSecurityHeaders(app: FastifyInstance, pagesOrigin: string | undefined, behindProxy: boolean): void {
  const plain = helmetHeaders(consoleHelmetOptions(pagesOrigin, false));
  const secure: THeaderSet = { ...helmetHeaders(consoleHelmetOptions(pagesOrigin, true)), 'strict-transport-security': HSTS_HEADER };
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.securityHeaders !== false) reply.headers(behindProxy && request.protocol === 'https' ? secure : plain);
    done();
  });
  if (!behindProxy) return;
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.protocol === 'https') {
      const csp = reply.getHeader('content-security-policy');
      if (typeof csp === 'string' && !csp.includes('upgrade-insecure-requests')) {
        reply.header('content-security-policy', `${csp};upgrade-insecure-requests`);
      }
      reply.header('strict-transport-security', HSTS_HEADER);
    }
    done(null, payload);
  });
}
