/**
 * The console's security headers (helmet): a strict Content-Security-Policy for the console and API, and the two
 * headers that only make sense over HTTPS — `upgrade-insecure-requests` and HSTS — sent only when the request came
 * over HTTPS (directly, or through a proxy trusted by TRUST_PROXY that says `X-Forwarded-Proto: https`). Sent over
 * plain HTTP, `upgrade-insecure-requests` makes a browser that opened `http://<address>:8080/` fetch every script
 * over https, which nothing serves, and the console stays blank (browsers exempt only `localhost`).
 */
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** HSTS sent over HTTPS: half a year, subdomains included (helmet's default policy). */
export const HSTS_HEADER = 'max-age=15552000; includeSubDomains';

/**
 * Registers helmet on `app` with the console's policy. `pagesOrigin` (PAGES_ORIGIN) may frame custom pages.
 * Routes with their own policy (custom pages, uploaded images) opt out per route as before.
 */
export async function registerSecurityHeaders(app: FastifyInstance, pagesOrigin: string | undefined): Promise<void> {
  await app.register(fastifyHelmet, {
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
        'upgrade-insecure-requests': null,
      },
    },
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol !== 'https') return;
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp === 'string' && !csp.includes('upgrade-insecure-requests')) {
      reply.header('content-security-policy', `${csp};upgrade-insecure-requests`);
    }
    reply.header('strict-transport-security', HSTS_HEADER);
  });
}
