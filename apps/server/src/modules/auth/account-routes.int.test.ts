import { eq } from 'drizzle-orm';
import {
  ErrorCode,
  paths,
  type TAccountSummary,
  type TApiKey,
  type TApiKeyCreated,
  type TPage,
  type TProfile,
  type TTokenResponse,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../db/schema.js';
import { buildAccount, TEST_PASSWORD, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';

type TErr = { code: string; message: string };

describe(`profile, password, API keys and admin routes (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let admin: TBuiltAccount;
  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildAccount(server, { level: 'vendor' });
    user = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId });
    admin = await buildAccount(server, { level: 'admin' });
  });
  afterAll(() => server.stop());

  const newKey = (token: string, body: Record<string, unknown> = { name: 'script', expires_at: null }) =>
    server.api<TApiKeyCreated>('POST', paths.apiKeys, { token, body });

  describe('every own-account route: 401 without a token, 2xx for any logged-in level', () => {
    const routes: [string, string, (a: TBuiltAccount) => Promise<unknown> | unknown][] = [
      ['GET', paths.profile, () => undefined],
      ['PUT', paths.profile, () => ({ name: 'Renamed' })],
      ['PUT', paths.pwd, () => ({ old_password: TEST_PASSWORD, password: 'Other#2026', confirm_password: 'Other#2026' })],
      ['GET', paths.apiKeys, () => undefined],
      ['POST', paths.apiKeys, () => ({ name: 'k', expires_at: null })],
      ['POST', paths.apiKeyRevoke, async (a) => ({ id: (await newKey(a.token)).body.id })],
    ];
    for (const [method, url, body] of routes) {
      it(`${method} ${url}`, async () => {
        const anon = await server.api<TErr>(method as 'GET', url, { body: await body(vendor) });
        expect(anon.status).toBe(401);
        expect(anon.body.code).toBe('AUTH_REQUIRED');
        for (const level of ['vendor', 'user', 'admin'] as const) {
          const a = await buildAccount(server, { level });
          const ok = await server.api(method as 'GET', url, { token: a.token, body: await body(a) });
          expect(ok.status, `${level}: ${JSON.stringify(ok.body)}`).toBeLessThan(300);
        }
      });
    }
  });

  describe('admin routes: 401 without a token, 403 for a vendor or user, 200 for an admin', () => {
    for (const [method, url, body] of [
      ['GET', paths.adminAccounts, undefined],
      ['POST', paths.adminSwitch, () => ({ account_id: vendor.accountId })],
    ] as const) {
      it(`${method} ${url}`, async () => {
        const b = body?.();
        expect((await server.api(method, url, { body: b })).status).toBe(401);
        const asVendor = await server.api<TErr>(method, url, { token: vendor.token, body: b });
        expect(asVendor.status).toBe(403);
        expect(asVendor.body.code).toBe('FORBIDDEN');
        expect((await server.api(method, url, { token: user.token, body: b })).status).toBe(403);
        expect((await server.api(method, url, { token: admin.token, body: b })).status).toBe(200);
      });
    }
  });

  describe('credential routes: 401 without auth, 403 AUTH_SESSION_REQUIRED with an API key, 2xx with a JWT session', () => {
    const fiftyYears = () => Date.now() + 50 * 365 * 24 * 3600_000;
    const routes: [string, string, (a: TBuiltAccount) => Promise<unknown> | unknown, TBuiltAccount['level']][] = [
      ['GET', paths.apiKeys, () => undefined, 'vendor'],
      ['POST', paths.apiKeys, () => ({ name: 'forever', expires_at: fiftyYears() }), 'user'],
      ['POST', paths.apiKeyRevoke, async (a) => ({ id: (await newKey(a.token)).body.id }), 'vendor'],
      ['PUT', paths.pwd, () => ({ old_password: TEST_PASSWORD, password: 'Other#2026', confirm_password: 'Other#2026' }), 'user'],
      ['POST', paths.adminSwitch, () => ({ account_id: user.accountId }), 'admin'],
    ];
    for (const [method, url, body, level] of routes) {
      it(`${method} ${url}`, async () => {
        const a = await buildAccount(server, { level });
        const anon = await server.api<TErr>(method as 'GET', url, { body: await body(a) });
        expect(anon.status).toBe(401);
        expect(anon.body.code).toBe('AUTH_REQUIRED');

        const key = (await newKey(a.token, { name: 'short-lived', expires_at: Date.now() + 60_000 })).body;
        const payload = await body(a);
        const keysOf = () => server.ctx.db.select().from(apiKeys).where(eq(apiKeys.accountId, a.accountId)).orderBy(apiKeys.id);
        const keysBefore = await keysOf();
        const viaKey = await server.api<TErr>(method as 'GET', url, { token: key.key, body: payload });
        expect(viaKey.status, JSON.stringify(viaKey.body)).toBe(403);
        expect(viaKey.body.code).toBe(ErrorCode.SessionRequired);
        // Nothing minted, extended or revoked by the key.
        expect(await keysOf()).toEqual(keysBefore);
        // The key still does what it may: read and rename the profile.
        expect((await server.api('GET', paths.profile, { token: key.key })).status).toBe(200);
        expect((await server.api('PUT', paths.profile, { token: key.key, body: { name: 'Script' } })).status).toBe(200);

        const viaJwt = await server.api(method as 'GET', url, { token: a.token, body: payload });
        expect(viaJwt.status, JSON.stringify(viaJwt.body)).toBeLessThan(300);
      });
    }
  });

  it('GET and PUT profile read and change only the caller’s account', async () => {
    const a = await buildAccount(server, { level: 'vendor' });
    const put = await server.api<TProfile>('PUT', paths.profile, { token: a.token, body: { name: 'New Name', language: 'en' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      id: a.accountId,
      email: a.email,
      name: 'New Name',
      language: 'en',
      level: 'vendor',
      tenant_id: a.tenantId,
    });
    expect((await server.api<TProfile>('GET', paths.profile, { token: vendor.token })).body.name).not.toBe('New Name');
    expect(put.body).not.toHaveProperty('password_hash');
    expect(JSON.stringify(put.body)).not.toMatch(/argon2/);
  });

  it('PUT pwd refuses a wrong old password and changes it with the right one', async () => {
    const a = await buildAccount(server, { level: 'user' });
    const body = (old: string) => ({ old_password: old, password: 'Changed#26', confirm_password: 'Changed#26' });
    const wrong = await server.api<TErr>('PUT', paths.pwd, { token: a.token, body: body('Wrong#2026x') });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('AUTH_PASSWORD_INCORRECT');
    expect((await server.api('PUT', paths.pwd, { token: a.token, body: body(TEST_PASSWORD) })).status).toBe(204);
    expect((await server.api('POST', paths.login, { body: { email: a.email, password: 'Changed#26', role: 'user' } })).status).toBe(200);
    const same = await server.api<TErr>('PUT', paths.pwd, {
      token: a.token,
      body: { old_password: 'Changed#26', password: 'Changed#26', confirm_password: 'Changed#26' },
    });
    expect(same.status).toBe(400);
    expect(same.body.code).toBe('VALIDATION_FAILED');
  });

  describe('API keys', () => {
    it('a created key is shown once, listed by prefix only, and works as a Bearer until revoked', async () => {
      const a = await buildAccount(server, { level: 'vendor' });
      const created = await newKey(a.token, { name: 'ci', expires_at: null });
      expect(created.status).toBe(201);
      expect(created.body.key).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
      expect(created.body.key.startsWith(created.body.prefix)).toBe(true);

      const list = await server.api<TPage<TApiKey>>('GET', paths.apiKeys, { token: a.token });
      expect(list.body.total_items).toBe(1);
      expect(list.body.data[0]).toMatchObject({
        id: created.body.id,
        name: 'ci',
        prefix: created.body.prefix,
        revoked: false,
        expires_at: null,
      });
      expect(JSON.stringify(list.body)).not.toContain(created.body.key);
      const [stored] = await server.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, created.body.id));
      expect(stored.keyHash).not.toContain(created.body.key);

      const viaKey = await server.api<TProfile>('GET', paths.profile, { token: created.body.key });
      expect(viaKey.status).toBe(200);
      expect(viaKey.body.id).toBe(a.accountId);

      expect((await server.api('POST', paths.apiKeyRevoke, { token: a.token, body: { id: created.body.id } })).status).toBe(204);
      expect((await server.api('GET', paths.profile, { token: created.body.key })).status).toBe(401);
      const after = await server.api<TPage<TApiKey>>('GET', paths.apiKeys, { token: a.token });
      expect(after.body.data[0].revoked).toBe(true);
    });

    it('a key stops working when it expires; an expiry in the past is refused', async () => {
      const a = await buildAccount(server, { level: 'user' });
      const created = await newKey(a.token, { name: 'short', expires_at: Date.now() + 1_000 });
      expect((await server.api('GET', paths.profile, { token: created.body.key })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await server.api('GET', paths.profile, { token: created.body.key })).status).toBe(401);
      const past = await server.api<TErr>('POST', paths.apiKeys, { token: a.token, body: { name: 'old', expires_at: Date.now() - 1 } });
      expect(past.status).toBe(400);
      expect(past.body.code).toBe('VALIDATION_FAILED');
    });

    it('another account can neither see nor revoke my key (404)', async () => {
      const mine = await buildAccount(server, { level: 'vendor' });
      const other = await buildAccount(server, { level: 'vendor' });
      const created = await newKey(mine.token);
      expect((await server.api<TPage<TApiKey>>('GET', paths.apiKeys, { token: other.token })).body.total_items).toBe(0);
      const revoke = await server.api<TErr>('POST', paths.apiKeyRevoke, { token: other.token, body: { id: created.body.id } });
      expect(revoke.status).toBe(404);
      expect((await server.api('GET', paths.profile, { token: created.body.key })).status).toBe(200);
      expect((await server.api('POST', paths.apiKeyRevoke, { token: mine.token, body: { id: 999_999 } })).status).toBe(404);
    });
  });

  describe('admin', () => {
    it('lists accounts of every tenant, paged and searchable', async () => {
      const res = await server.api<TPage<TAccountSummary>>('GET', `${paths.adminAccounts}?q=${encodeURIComponent(user.email)}`, {
        token: admin.token,
      });
      expect(res.body.total_items).toBe(1);
      expect(res.body.data[0]).toMatchObject({
        id: user.accountId,
        email: user.email,
        level: 'user',
        tenant_id: vendor.tenantId,
        locked: false,
      });
      const page = await server.api<TPage<TAccountSummary>>('GET', `${paths.adminAccounts}?page=1&limit=2`, { token: admin.token });
      expect(page.body.data).toHaveLength(2);
      expect(page.body.total_items).toBeGreaterThanOrEqual(3);
    });

    it('switch answers a working token pair of the target account; an unknown one is 404', async () => {
      const res = await server.api<TTokenResponse>('POST', paths.adminSwitch, { token: admin.token, body: { account_id: user.accountId } });
      expect(res.status).toBe(200);
      const profile = await server.api<TProfile>('GET', paths.profile, { token: res.body.token });
      expect(profile.body).toMatchObject({ id: user.accountId, level: 'user' });
      expect((await server.api('POST', paths.refreshToken, { body: { refresh_token: res.body.refresh_token } })).status).toBe(200);
      expect((await server.api('POST', paths.adminSwitch, { token: admin.token, body: { account_id: 999_999 } })).status).toBe(404);
    });
  });

  it('documents every auth route with its response schema in /openapi.json', async () => {
    const doc = await server.api<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>('GET', '/openapi.json');
    const auth = Object.entries(paths).filter(([, p]) => typeof p === 'string' && p.startsWith('/authorization/v1/'));
    for (const [, p] of auth) {
      const ops = doc.body.paths[p as string];
      expect(ops, p as string).toBeDefined();
      for (const op of Object.values(ops)) expect(Object.keys(op.responses).length, p as string).toBeGreaterThan(0);
    }
    expect(doc.body.paths[paths.login].post.responses['200']).toBeDefined();
  });
});
