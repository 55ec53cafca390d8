/**
 * The usual cast of an API test file: a running test server, a vendor, a user of that vendor's tenant and a vendor
 * of another tenant (whose requests must answer 404 — tenant isolation).
 */
import { buildUser, buildVendor, type TBuiltAccount } from './factories.js';
import type { TConfig } from '../src/core/config.js';
import { startTestServer, type TTestServer } from './helpers.js';

/** A server and three accounts; see the module comment. */
export interface TTwoTenants {
  server: TTestServer;
  vendor: TBuiltAccount;
  user: TBuiltAccount;
  other: TBuiltAccount;
}

/**
 * Starts a test server (PGlite or PostgreSQL per TEST_DB, with config `overrides`) and builds the three accounts.
 * The caller stops it.
 */
export async function startTwoTenants(overrides: Partial<TConfig> = {}): Promise<TTwoTenants> {
  const server = await startTestServer(overrides);
  const vendor = await buildVendor(server);
  const user = await buildUser(server, vendor.tenantId);
  const other = await buildVendor(server);
  return { server, vendor, user, other };
}
