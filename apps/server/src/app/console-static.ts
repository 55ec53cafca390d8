/**
 * Serving the built console (apps/web/dist) so a phone downloads it once and small (docs/web-bundle.md):
 * - each text file is sent as the build's brotli (`.br`) or gzip (`.gz`) sibling when the browser accepts that
 *   encoding (`Vary: Accept-Encoding`), else as it is;
 * - hashed files under `/assets/` are `immutable` for a year (a new build gives them new names);
 * - everything else, `index.html` first, is revalidated on every use (`no-cache` with its ETag), so a deploy shows at
 *   the next load;
 * - hashed files do not carry the security headers that only a document (or a worker, none of which is under
 *   `/assets/`) obeys, such as the Content-Security-Policy: about 700 bytes less on each of a dashboard's hundred
 *   requests (docs/decisions/web.md); `index.html`, `sw.js` and the API keep every header;
 * - any other path that is not the API's gets `index.html` (the console's router decides), except a missing
 *   `/assets/` file, which is a 404 rather than a page of HTML where a script was expected (app.ts's not-found handler).
 */
import { relative } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { TApp } from '../core/app-type.js';
import { DOCUMENT_ONLY_HEADERS } from '../core/security-headers.js';

/** Cache-Control of the hashed build output (`/assets/*`): a year, never revalidated. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Cache-Control of every file whose name does not change with its content (`index.html`, media): always revalidated. */
export const REVALIDATED_CACHE = 'no-cache';

/** URL prefix of the build's content-hashed files (Vite's `assets/` directory). */
const HASHED_PREFIX = '/assets/';

/**
 * True when `filePath` (a path on disk under the console's `root`, maybe ending in `.br`/`.gz`) is a hashed asset:
 * under the root's own `assets/` folder, whatever folders the root itself sits in.
 */
function isHashedAsset(root: string, filePath: string): boolean {
  return /^assets[\\/]/.test(relative(root, filePath));
}

/** Re-exported for the tests of this file: the headers a hashed asset is sent without. */
export { DOCUMENT_ONLY_HEADERS };

function setCacheHeaders(root: string, reply: FastifyReply, filePath: string): void {
  if (!isHashedAsset(root, filePath)) {
    reply.header('cache-control', REVALIDATED_CACHE);
    return;
  }
  reply.header('cache-control', HASHED_ASSET_CACHE);
  for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
}

/** Registers the console's files at `/` from `root` (the built apps/web/dist). */
export async function registerConsoleStatic(app: TApp, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: 'index.html',
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply: FastifyReply, filePath: string) => setCacheHeaders(root, reply, filePath),
  });
}

/** True for a URL under `/assets/` (the hashed build output): one that no file matched is a 404, never `index.html`. */
export function isConsoleAssetPath(url: string): boolean {
  return url.startsWith(HASHED_PREFIX);
}

/** Answers with the console's `index.html` (revalidated, compressed when accepted): its router shows the page. */
export function sendConsoleIndex(reply: FastifyReply): FastifyReply {
  return reply.type('text/html').sendFile('index.html');
}
