/**
 * Test factories (outline style): build accounts, products, projects and devices through the same code paths
 * the API uses where one exists, else straight rows. Every factory answers what a test needs to act as that
 * entity (a token, ids, a device secret).
 */
import {
  DEFAULT_FEATURES,
  lorawanPaths,
  type TAccountLevel,
  type TLorawanIntegrationInput,
  type TLorawanIntegrationWithSecret,
} from '@tessera/contracts';
import { expect } from 'vitest';
import { hashPassword } from '../src/core/crypto.js';
import { accounts, tenants } from '../src/db/schema.js';
import type { TTestServer } from './helpers.js';

/** The password of every factory-built account (meets the §5 rule). */
export const TEST_PASSWORD = 'Test#2026ok';

let seq = 0;
/** A unique email for a test. */
export function uniqueEmail(label = 'acct'): string {
  seq += 1;
  return `${label}${seq}.${Date.now().toString(36)}@example.com`;
}

/** A built account: its ids and a valid access token. */
export interface TBuiltAccount {
  accountId: number;
  tenantId: number;
  email: string;
  token: string;
  level: TAccountLevel;
}

/**
 * Builds an account. `tenantId` joins an existing tenant (a user of a vendor); otherwise a new tenant is made.
 */
export async function buildAccount(
  server: TTestServer,
  opts: { level?: TAccountLevel; email?: string; tenantId?: number; password?: string; fea?: string[] } = {},
): Promise<TBuiltAccount> {
  const level = opts.level ?? 'vendor';
  const email = opts.email ?? uniqueEmail(level);
  const db = server.ctx.db;
  let tenantId = opts.tenantId;
  if (!tenantId) {
    const [t] = await db
      .insert(tenants)
      .values({ name: `${email} tenant` })
      .returning();
    tenantId = t.id;
  }
  const fea = opts.fea ?? [...DEFAULT_FEATURES[level]];
  const [a] = await db
    .insert(accounts)
    .values({
      tenantId,
      email,
      name: email.split('@')[0],
      passwordHash: await (opts.password === undefined ? testPasswordHash() : hashPassword(opts.password)),
      level,
      features: fea,
    })
    .returning();
  const token = await server.ctx.tokens.sign({ sub: String(a.id), tid: tenantId, email, level, fea });
  return { accountId: a.id, tenantId, email, token, level };
}

/**
 * The argon2id hash of TEST_PASSWORD, made once per test process and shared by every account built with it (each
 * hash costs tens of milliseconds of CPU; a suite builds hundreds of accounts). A real hash, so logins verify as usual.
 */
let testPasswordHashOnce: Promise<string> | undefined;
function testPasswordHash(): Promise<string> {
  testPasswordHashOnce ??= hashPassword(TEST_PASSWORD);
  return testPasswordHashOnce;
}

/** A vendor with its own tenant. */
export const buildVendor = (server: TTestServer, email?: string) => buildAccount(server, { level: 'vendor', email });
/** A user in `tenantId`'s tenant (or a tenant of their own). */
export const buildUser = (server: TTestServer, tenantId?: number) => buildAccount(server, { level: 'user', tenantId });

/**
 * Gives device `tangramId` DevEUI `devEui` and creates a LoRaWAN webhook integration of project `projectId` (ChirpStack,
 * default mapping, unless `integration` says otherwise), both through the console's API as vendor `token`; answers
 * the integration with its secret. Fails the test when either call is refused.
 */
export async function buildLorawanWebhook(
  server: TTestServer,
  token: string,
  opts: { projectId: number; tangramId: string; devEui: string; integration?: Partial<TLorawanIntegrationInput> },
): Promise<TLorawanIntegrationWithSecret> {
  const eui = await server.api('PUT', lorawanPaths.device(opts.tangramId), { token, body: { dev_eui: opts.devEui } });
  expect(eui.status).toBe(200);
  const created = await server.api<TLorawanIntegrationWithSecret>('POST', lorawanPaths.list(opts.projectId), {
    token,
    body: { name: 'ChirpStack', network_server: 'chirpstack', ...opts.integration },
  });
  expect(created.status).toBe(201);
  return created.body;
}
