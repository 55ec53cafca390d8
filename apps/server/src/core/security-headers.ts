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
    /**
     * false: the route sets its own security headers (a custom page, a sandboxed document); HSTS is still sent.
     * `'non-document'`: a route no browser loads as a document or worker (a network server's webhook) is sent the
     * headers without {@link DOCUMENT_ONLY_HEADERS}, as the console's hashed assets are.
     */
    securityHeaders?: false | 'non-document';
  }
}

/**
 * Security headers that a browser reads only from a document's or a worker's response (W3C CSP 3 attaches policies to
 * documents and workers; webhint's `no-html-only-headers`), so an answer no browser renders as a page — a script,
 * style sheet, font or sound under `/assets/` (app/console-static.ts), a network server's webhook — need not carry
 * them. Kept on those: `X-Content-Type-Options` (the browser checks a script's or style sheet's type with it),
 * `Cross-Origin-Resource-Policy` (it guards exactly such subresources from other sites), `Referrer-Policy` (a module
 * script's imports and a style sheet's fonts and images are fetched with the policy of the file that asks for them),
 * and HSTS over HTTPS.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'permissions-policy',
] as const;

/** `headers` without {@link DOCUMENT_ONLY_HEADERS}. */
function nonDocument(headers: THeaderSet): THeaderSet {
  const kept: Record<string, string> = { ...headers };
  for (const name of DOCUMENT_ONLY_HEADERS) delete kept[name];
  return kept;
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
 * pages. A route with `config: { securityHeaders: false }` sets its own (custom pages), one with `'non-document'` is
 * sent them without {@link DOCUMENT_ONLY_HEADERS} (a webhook); a route that sets its own
 * Content-Security-Policy (uploaded images) replaces the console's. Over HTTPS, HSTS is sent on every response and
 * `upgrade-insecure-requests` is in every CSP, a route's own included — checked when the answer is sent, which is
 * needed only when requests can arrive over HTTPS at all (`behindProxy`: TRUST_PROXY is set; this server itself
 * listens on plain HTTP).
 */
export function registerSecurityHeaders(app: FastifyInstance, pagesOrigin: string | undefined, behindProxy: boolean): void {
  const plain = helmetHeaders(consoleHelmetOptions(pagesOrigin, false));
  const secure: THeaderSet = { ...helmetHeaders(consoleHelmetOptions(pagesOrigin, true)), 'strict-transport-security': HSTS_HEADER };
  const plainNonDocument = nonDocument(plain);
  const secureNonDocument = nonDocument(secure);
  app.addHook('onRequest', (request, reply, done) => {
    const which = request.routeOptions.config.securityHeaders;
    if (which !== false) {
      const https = behindProxy && request.protocol === 'https';
      if (which === 'non-document') reply.headers(https ? secureNonDocument : plainNonDocument);
      else reply.headers(https ? secure : plain);
    }
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
