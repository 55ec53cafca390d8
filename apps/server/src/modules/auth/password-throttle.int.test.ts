/**
 * Wrong passwords (docs/decisions/auth.md "Wrong passwords"): slowed down per (email, client address) before the
 * account-wide lock, so knowing an email is no longer enough to lock its owner out; the reset mail unlocks; a changed
 * password ends the account's other sessions; a signed token without `exp` is refused.
 */
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { ErrorCode, LOGIN_FREE_FAILURES, MAX_LOGIN_FAILURES, paths, type TErrorBody, type TTokenResponse } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, TEST_PASSWORD, uniqueEmail } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { accounts, passwordThrottles, settings } from '../../db/schema.js';
import { startSmtpSink, type TSmtpSink } from '../mail/smtp-sink.fixture.js';

const WRONG = 'Wrong#2026x';

describe(`wrong passwords, the lock and sessions after a password change (${TEST_DB_KIND})`, () => {
  let smtp: TSmtpSink;
  let server: TTestServer;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    // Behind a proxy on 127.0.0.1 (app.inject's peer): X-Forwarded-For is the client address.
    server = await startTestServer({ smtpUrl: smtp.url, trustProxy: ['127.0.0.1'] });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  let ipSeq = 0;
  const nextIp = () => `198.51.100.${++ipSeq}`;
  const loginFrom = (ip: string, email: string, password: string) =>
    server.api<TTokenResponse & TErrorBody>('POST', paths.login, {
      body: { email, password, role: 'vendor' },
      headers: { 'x-forwarded-for': ip },
    });
  /** Lets the (email, address) pair's current wait run out, as if time had passed. */
  const endWait = (email: string) =>
    server.ctx.db
      .update(passwordThrottles)
      .set({ blockedUntil: Date.now() - 1 })
      .where(eq(passwordThrottles.email, email));

  it('slows one address down after the free attempts, without checking the password, and not other addresses', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const ip = nextIp();
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) expect((await loginFrom(ip, v.email, WRONG)).status).toBe(401);
    const slowed = await loginFrom(ip, v.email, TEST_PASSWORD);
    expect(slowed.status).toBe(429);
    expect(slowed.body.code).toBe(ErrorCode.LoginThrottled);
    expect(slowed.headers['retry-after']).toBe('1');
    expect((await loginFrom(nextIp(), v.email, TEST_PASSWORD)).status).toBe(200);

    // The wait doubles with each further wrong password from that address.
    await endWait(v.email);
    expect((await loginFrom(ip, v.email, WRONG)).status).toBe(401);
    expect((await loginFrom(ip, v.email, TEST_PASSWORD)).headers['retry-after']).toBe('2');
    await endWait(v.email);
    expect((await loginFrom(ip, v.email, TEST_PASSWORD)).status).toBe(200);
    expect((await loginFrom(ip, v.email, WRONG)).status).toBe(401);
  });

  it('treats an unknown email alike, so the answers do not tell which accounts exist', async () => {
    const ip = nextIp();
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) expect((await loginFrom(ip, ghost, WRONG)).status).toBe(401);
    expect((await loginFrom(ip, ghost, WRONG)).status).toBe(429);
  });

  it('lets at most the free attempts of a parallel burst from one address reach the password check', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const ip = nextIp();
    const answers = await Promise.all(Array.from({ length: 12 }, () => loginFrom(ip, v.email, WRONG)));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(LOGIN_FREE_FAILURES);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(12 - LOGIN_FREE_FAILURES);
  });

  it('one address hammering an email cannot lock its owner out', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const attacker = nextIp();
    for (let i = 0; i < MAX_LOGIN_FAILURES * 3; i++) await loginFrom(attacker, v.email, WRONG);
    const [row] = await server.ctx.db.select().from(accounts).where(eq(accounts.id, v.accountId));
    expect(row.failedLogins).toBe(LOGIN_FREE_FAILURES);
    expect(row.lockedUntil).toBeNull();
    expect((await loginFrom(nextIp(), v.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('after many addresses lock the account, the reset mail unlocks it', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) await loginFrom(nextIp(), v.email, WRONG);
    const locked = await loginFrom(nextIp(), v.email, TEST_PASSWORD);
    expect(locked.status).toBe(423);
    expect(locked.body.message).toMatch(/reset the password/);

    expect((await server.api('POST', paths.forgotPwd, { body: { email: v.email } })).status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes(v.email));
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    const fresh = 'Unlock#2026';
    const reset = await server.api('POST', paths.resetPwd, { body: { email: v.email, code, password: fresh, confirm_password: fresh } });
    expect(reset.status).toBe(204);
    expect((await loginFrom(nextIp(), v.email, fresh)).status).toBe(200);
  });

  it('a changed password ends every other session of the account, and keeps the caller’s', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const laptop = (await loginFrom(nextIp(), v.email, TEST_PASSWORD)).body;
    const phone = (await loginFrom(nextIp(), v.email, TEST_PASSWORD)).body;
    const fresh = 'Changed#2026';
    const put = await server.api('PUT', paths.pwd, {
      token: laptop.token,
      body: { old_password: TEST_PASSWORD, password: fresh, confirm_password: fresh, refresh_token: laptop.refresh_token },
    });
    expect(put.status).toBe(204);
    const refresh = (token: string) => server.api<TErrorBody>('POST', paths.refreshToken, { body: { refresh_token: token } });
    expect((await refresh(phone.refresh_token)).status).toBe(401);
    expect((await refresh(phone.refresh_token)).body.code).toBe(ErrorCode.RefreshInvalid);
    expect((await refresh(laptop.refresh_token)).status).toBe(200);
  });

  it('refuses a token signed with the right key but without exp', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const [secret] = await server.ctx.db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
    const forever = await new SignJWT({ tid: v.tenantId, email: v.email, level: 'vendor', fea: [] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(v.accountId))
      .sign(new TextEncoder().encode(secret.value));
    expect((await server.api('GET', paths.profile, { token: forever })).status).toBe(401);
    expect((await server.api('GET', paths.profile, { token: v.token })).status).toBe(200);
  });
});
