/**
 * Wrong passwords (docs/decisions/auth.md "Wrong passwords"): slowed down per (email, client address) and per email,
 * never locked out, so guessing from any number of addresses cannot keep the owner out (OWASP ASVS 2.2.1); the reset
 * mail forgets every throttle; a changed password ends the account's other sessions; a signed token without `exp` is
 * refused.
 */
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import {
  ErrorCode,
  LOGIN_ACCOUNT_FREE_FAILURES,
  LOGIN_FREE_FAILURES,
  paths,
  type TErrorBody,
  type TTokenResponse,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, TEST_PASSWORD, uniqueEmail } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { passwordEmailThrottles, passwordThrottles, settings } from '../../db/schema.js';
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
  /** Lets every current wait of `email` (its addresses' and its own) run out, as if time had passed. */
  const endWait = async (email: string) => {
    const db = server.ctx.db;
    await db
      .update(passwordEmailThrottles)
      .set({ blockedUntil: Date.now() - 1 })
      .where(eq(passwordEmailThrottles.email, email));
    await db
      .update(passwordThrottles)
      .set({ blockedUntil: Date.now() - 1 })
      .where(eq(passwordThrottles.email, email));
  };
  /**
   * Guesses wrong from `addresses` in turn until `count` guesses were checked (401), letting the waits run out
   * whenever one is asked for (429), as a patient attacker would; any other answer fails the test.
   */
  const guessUntilChecked = async (addresses: string[], email: string, count: number) => {
    for (let i = 0, checked = 0; checked < count; i++) {
      const res = await loginFrom(addresses[i % addresses.length], email, WRONG);
      expect([401, 429], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 401) checked++;
      else await endWait(email);
    }
  };

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

  it('one address hammering an email cannot keep its owner out', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const attacker = nextIp();
    const answers = new Set<number>();
    for (let i = 0; i < LOGIN_ACCOUNT_FREE_FAILURES * 3; i++) answers.add((await loginFrom(attacker, v.email, WRONG)).status);
    expect([...answers].sort()).toEqual([401, 429]);
    expect((await loginFrom(nextIp(), v.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('many addresses guessing cannot lock the owner out: a fresh address logs in, the guessing ones still wait', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const attackers = Array.from({ length: 7 }, nextIp);
    await guessUntilChecked(attackers, v.email, 20);

    const owner = await loginFrom(nextIp(), v.email, TEST_PASSWORD);
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    expect(owner.body.token).toBeTruthy();
    // Every guessing address waits, even with the right password (it is not checked), for minutes rather than the
    // seconds its own few failures cost: the email's wait, doubled by each of the 20, applies to them.
    for (const ip of attackers) {
      const slowed = await loginFrom(ip, v.email, TEST_PASSWORD);
      expect(slowed.status, ip).toBe(429);
      expect(slowed.body.code).toBe(ErrorCode.LoginThrottled);
      expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(60);
    }
    // A new address gets one try while the email is being guessed: a wrong one joins the waiting addresses.
    const late = nextIp();
    expect((await loginFrom(late, v.email, WRONG)).status).toBe(401);
    expect((await loginFrom(late, v.email, TEST_PASSWORD)).status).toBe(429);
    // The owner's address logged in, so it has no failures and is not held by the email's wait.
    const again = nextIp();
    expect((await loginFrom(again, v.email, TEST_PASSWORD)).status).toBe(200);
    expect((await loginFrom(again, v.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('parallel guesses from many addresses reach the password check at most once per address beyond the free ones', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const addresses = Array.from({ length: 10 }, nextIp);
    const answers = await Promise.all(addresses.flatMap((ip) => Array.from({ length: 6 }, () => loginFrom(ip, v.email, WRONG))));
    const checked = answers.filter((a) => a.status === 401).length;
    // Each fresh address gets its try; beyond that the email's LOGIN_ACCOUNT_FREE_FAILURES, not the addresses' 3 each.
    expect(checked).toBeGreaterThanOrEqual(addresses.length);
    expect(checked).toBeLessThanOrEqual(addresses.length + LOGIN_ACCOUNT_FREE_FAILURES);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(answers.length - checked);
    expect((await loginFrom(nextIp(), v.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('the reset mail forgets every throttle of the email', async () => {
    const v = await buildAccount(server, { level: 'vendor' });
    const attackers = Array.from({ length: 5 }, nextIp);
    await guessUntilChecked(attackers, v.email, 20);
    expect((await loginFrom(attackers[0], v.email, TEST_PASSWORD)).status).toBe(429);

    expect((await server.api('POST', paths.forgotPwd, { body: { email: v.email } })).status).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes(v.email));
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    const fresh = 'Unlock#2026';
    const reset = await server.api('POST', paths.resetPwd, { body: { email: v.email, code, password: fresh, confirm_password: fresh } });
    expect(reset.status).toBe(204);
    expect((await loginFrom(attackers[0], v.email, fresh)).status).toBe(200);
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
