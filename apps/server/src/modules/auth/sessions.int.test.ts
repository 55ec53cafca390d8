import { eq } from 'drizzle-orm';
import { LOGIN_FREE_FAILURES, paths, type TTokenResponse } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, refreshTokens } from '../../db/schema.js';
import { buildAccount, TEST_PASSWORD, uniqueEmail } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { RATE_LIMITS } from './rate-limits.js';

type TErr = { code: string; message: string };

describe(`login, the operator's lock, refresh rotation and logout (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    // Behind a proxy on 127.0.0.1 (app.inject's peer): each test's X-Forwarded-For is its client address.
    server = await startTestServer({ trustProxy: ['127.0.0.1'] });
  });
  afterAll(() => server.stop());

  // Each test logs in from its own client address so that the per-IP login limit does not couple tests.
  let ipSeq = 0;
  const loginAs = (email: string, password: string, role: 'vendor' | 'user', ip = `198.51.100.${++ipSeq}`) =>
    server.api<TTokenResponse & TErr>('POST', paths.login, { body: { email, password, role }, headers: { 'x-forwarded-for': ip } });

  it('answers a wrong password and an unknown email alike', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const wrong = await loginAs(v.email, 'Wrong#2026x', 'vendor');
    const unknown = await loginAs(uniqueEmail('ghost'), TEST_PASSWORD, 'vendor');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'AUTH_WRONG_CREDENTIALS', message: 'wrong account or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("refuses even the right password while an operator's lock lasts, and logs in once it has ended", async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const lock = (until: number) => server.ctx.db.update(accounts).set({ lockedUntil: until }).where(eq(accounts.id, v.accountId));
    await lock(Date.now() + 60_000);
    const right = await loginAs(v.email, TEST_PASSWORD, 'vendor');
    expect(right.status).toBe(423);
    expect(right.body.code).toBe('AUTH_ACCOUNT_LOCKED');
    expect(right.body.message).toMatch(/locked.*contact the administrator.*reset the password/);
    await lock(Date.now() - 1);
    expect((await loginAs(v.email, TEST_PASSWORD, 'vendor')).status).toBe(200);
  });

  it('a right password gives its address’s failures back, so the next wrong ones are free again', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const ip = '203.0.113.7';
    for (let i = 1; i < LOGIN_FREE_FAILURES; i++) expect((await loginAs(v.email, 'Wrong#2026x', 'vendor', ip)).status).toBe(401);
    expect((await loginAs(v.email, TEST_PASSWORD, 'vendor', ip)).status).toBe(200);
    for (let i = 1; i < LOGIN_FREE_FAILURES; i++) expect((await loginAs(v.email, 'Wrong#2026x', 'vendor', ip)).status).toBe(401);
    expect((await loginAs(v.email, TEST_PASSWORD, 'vendor', ip)).status).toBe(200);
  });

  it('keeps vendor and user logins apart (admins log in as vendors)', async () => {
    const vendor = await buildAccount(server, { level: 'vendor' });
    const user = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId });
    const admin = await buildAccount(server, { level: 'admin' });
    const refused = await loginAs(vendor.email, TEST_PASSWORD, 'user');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('AUTH_WRONG_CREDENTIALS');
    expect((await loginAs(user.email, TEST_PASSWORD, 'vendor')).status).toBe(401);
    expect((await loginAs(admin.email, TEST_PASSWORD, 'user')).status).toBe(401);
    expect((await loginAs(vendor.email, TEST_PASSWORD, 'vendor')).status).toBe(200);
    expect((await loginAs(user.email, TEST_PASSWORD, 'user')).status).toBe(200);
    expect((await loginAs(admin.email, TEST_PASSWORD, 'vendor')).status).toBe(200);
  });

  it('answers set_pwd_flag while the account must set a password, and not after PUT pwd', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    await server.ctx.db.update(accounts).set({ mustSetPassword: true }).where(eq(accounts.id, v.accountId));
    const first = await loginAs(v.email, TEST_PASSWORD, 'vendor');
    expect(first.body.set_pwd_flag).toBe(true);
    const newPassword = 'Fresh#2026';
    const put = await server.api('PUT', paths.pwd, {
      token: first.body.token,
      body: { old_password: TEST_PASSWORD, password: newPassword, confirm_password: newPassword },
    });
    expect(put.status).toBe(204);
    const second = await loginAs(v.email, newPassword, 'vendor');
    expect(second.status).toBe(200);
    expect(second.body.set_pwd_flag).toBeUndefined();
  });

  it('rotates refresh tokens; a reused one revokes its family, the newer token included', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const r1 = (await loginAs(v.email, TEST_PASSWORD, 'vendor')).body.refresh_token;
    const second = await server.api<TTokenResponse>('POST', paths.refreshToken, { body: { refresh_token: r1, platform: 'aiot' } });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(r1);
    expect((await server.api('GET', paths.profile, { token: second.body.token })).status).toBe(200);

    const reuse = await server.api<TErr>('POST', paths.refreshToken, { body: { refresh_token: r1 } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('UAE0007');
    const newer = await server.api<TErr>('POST', paths.refreshToken, { body: { refresh_token: second.body.refresh_token } });
    expect(newer.status).toBe(401);
    expect(newer.body.code).toBe('UAE0007');

    // Another session of the same account is untouched.
    const other = (await loginAs(v.email, TEST_PASSWORD, 'vendor')).body.refresh_token;
    expect((await server.api('POST', paths.refreshToken, { body: { refresh_token: other } })).status).toBe(200);
  });

  it('refuses unknown and expired refresh tokens with UAE0007', async () => {
    const unknown = await server.api<TErr>('POST', paths.refreshToken, { body: { refresh_token: 'not-a-token' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('UAE0007');
    const v = await buildAccount(server, { level: 'vendor' });
    const r = (await loginAs(v.email, TEST_PASSWORD, 'vendor')).body.refresh_token;
    await server.ctx.db
      .update(refreshTokens)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(refreshTokens.accountId, v.accountId));
    const expired = await server.api<TErr>('POST', paths.refreshToken, { body: { refresh_token: r } });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('UAE0007');
  });

  it('a refreshed access token carries the account’s current level, features and tenant', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const r = (await loginAs(v.email, TEST_PASSWORD, 'vendor')).body.refresh_token;
    await server.ctx.db
      .update(accounts)
      .set({ features: ['1', '2'] })
      .where(eq(accounts.id, v.accountId));
    const next = await server.api<TTokenResponse>('POST', paths.refreshToken, { body: { refresh_token: r } });
    const verified = await server.ctx.tokens.verify(next.body.token);
    expect(verified.ok && verified.payload).toMatchObject({
      sub: String(v.accountId),
      tid: v.tenantId,
      email: v.email,
      level: 'vendor',
      fea: ['1', '2'],
    });
  });

  it('logout revokes the session family; it needs no access token and tolerates no body', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const r = (await loginAs(v.email, TEST_PASSWORD, 'vendor')).body.refresh_token;
    expect((await server.api('POST', paths.logout, { body: { refresh_token: r } })).status).toBe(204);
    expect((await server.api('POST', paths.refreshToken, { body: { refresh_token: r } })).status).toBe(401);
    expect((await server.api('POST', paths.logout)).status).toBe(204);
    expect((await server.api('POST', paths.logout, { body: {} })).status).toBe(204);
  });

  it('answers an expired access token with 401 UAE0004 and a bad one with 401 AUTH_REQUIRED', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const expired = await server.ctx.tokens.sign(
      { sub: String(v.accountId), tid: v.tenantId, email: v.email, level: 'vendor', fea: [] },
      -10,
    );
    const res = await server.api<TErr>('GET', paths.profile, { token: expired });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UAE0004');
    const bad = await server.api<TErr>('GET', paths.profile, { token: `${v.token}x` });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('AUTH_REQUIRED');
  });

  it('rate-limits login per client IP', async () => {
    const ip = '203.0.113.9';
    // A new email each time: guessing across accounts from one address (one email is slowed down sooner).
    for (let i = 0; i < RATE_LIMITS.loginPerIp.max; i++) {
      expect((await loginAs(uniqueEmail('flood'), 'Wrong#2026x', 'vendor', ip)).status).toBe(401);
    }
    const email = uniqueEmail('flood');
    const limited = await loginAs(email, 'Wrong#2026x', 'vendor', ip);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect((await loginAs(email, 'Wrong#2026x', 'vendor', '203.0.113.10')).status).toBe(401);
  });

  it('rate-limits code mails per address, whichever route and client asks', async () => {
    const email = uniqueEmail('mailflood');
    for (let i = 0; i < RATE_LIMITS.mailPerEmail.max; i++) {
      const res = await server.api('POST', paths.verifyEmail, {
        body: { email, purpose: 'register' },
        headers: { 'x-forwarded-for': `192.0.2.${i}` },
      });
      expect(res.status).toBe(204);
    }
    const limited = await server.api<TErr>('POST', paths.forgotPwd, { body: { email }, headers: { 'x-forwarded-for': '192.0.2.99' } });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect((await server.api('POST', paths.verifyEmail, { body: { email: uniqueEmail('fine'), purpose: 'register' } })).status).toBe(204);
  });
});
