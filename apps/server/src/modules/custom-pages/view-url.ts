/**
 * Where and how a custom page is served (docs/decisions/custom-pages.md): its URL (on this host, or on PAGES_ORIGIN),
 * the console origin allowed to frame it, and the headers that sandbox it.
 */
import { customPagePaths } from '@tessera/contracts';
import type { FastifyRequest } from 'fastify';
import type { TConfig } from '../../core/config.js';
import { badRequest } from '../../core/errors.js';

/** An origin as it may appear in a CSP source list: scheme, host (name, IPv4 or [IPv6]) and optional port. */
const ORIGIN = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin the console called the API from (scheme and Host, or X-Forwarded-* behind a trusted proxy): the one
 * origin, beside the page's own, allowed to frame the page.
 * @throws AppError 400 when the Host header is not a plain host (it ends up inside a CSP header).
 */
export function consoleOriginOf(req: FastifyRequest): string {
  const origin = `${req.protocol}://${req.host}`;
  if (!ORIGIN.test(origin)) throw badRequest('the Host header is not a valid host');
  return origin;
}

/** The URL a page is opened at with `token`: relative to the console, or absolute on `config.pagesOrigin`. */
export function viewUrlOf(config: TConfig, projectId: number, token: string): string {
  return `${config.pagesOrigin ?? ''}${customPagePaths.view(projectId)}?t=${encodeURIComponent(token)}`;
}

/** True when `req` may be answered with a page: any host by default, only PAGES_ORIGIN's host when it is set. */
export function isPagesHost(config: TConfig, req: FastifyRequest): boolean {
  return !config.pagesOrigin || new URL(config.pagesOrigin).host === req.host;
}

/**
 * The page's Content-Security-Policy. `sandbox allow-scripts` gives the document an opaque origin even if it is
 * opened outside our iframe (no cookies, storage, or DOM of the console); everything the page uses must be inline
 * in its one file (no network at all: it cannot call the API, load remote code, or send device data elsewhere);
 * only the page's own host and the console may frame it.
 */
export function pageCsp(frameAncestor: string): string {
  return [
    'sandbox allow-scripts',
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    'font-src data:',
    'media-src data: blob:',
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    `frame-ancestors 'self' ${frameAncestor}`,
  ].join('; ');
}

/**
 * Every header of a served page besides its type (the integration tests check each). No X-Frame-Options: CSP
 * `frame-ancestors` replaces it, and SAMEORIGIN would forbid the console framing a page served from PAGES_ORIGIN.
 */
export function pageHeaders(frameAncestor: string): Record<string, string> {
  return {
    'content-security-policy': pageCsp(frameAncestor),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}
