/**
 * Starts the real Tessera server for a browser test: the built console (apps/web/dist) over a fresh database,
 * embedded broker on free ports. Reuses the server's integration harness.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TConfig } from '@tessera/server';
import { startTestServer, type TTestServer } from '@tessera/server/testing';

/**
 * The built console; `npm run test:e2e` builds it first. `E2E_WEB_DIST` points at another build (an older commit's,
 * to see a new test fail against the code before a change).
 */
export const WEB_DIST = process.env.E2E_WEB_DIST ?? fileURLToPath(new URL('../../apps/web/dist', import.meta.url));

/**
 * Starts a server serving the console.
 * @throws when the console has not been built.
 */
export async function startE2eServer(overrides: Partial<TConfig> = {}): Promise<TTestServer> {
  if (!existsSync(`${WEB_DIST}/index.html`)) throw new Error(`build the console first: npm run build -w @tessera/web (${WEB_DIST})`);
  return startTestServer({ webDist: WEB_DIST, ...overrides });
}
