import { count, eq } from 'drizzle-orm';
import { EMAIL_MAX, MAX_PAGE_LIMIT, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, paths, TOKEN_NAME_MAX } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, apiKeys, outboxEmails, refreshTokens, tenants, verificationCodes } from '../../db/schema.js';
import { buildAccount, TEST_PASSWORD, uniqueEmail, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { registerBody, requestRegisterCode } from './auth.fixtures.js';

type TErr = { code: string; message: string; details?: { path: string }[] };
type TCase = [method: 'POST' | 'PUT' | 'GET', url: string, valid: Record<string, unknown>, field: string, bad: unknown[]];

const long = (n: number) => 'x'.repeat(n);
const tooLongEmail = `${long(EMAIL_MAX)}@example.com`;
const newPwd = { old_password: TEST_PASSWORD, password: 'Other#2026', confirm_password: 'Other#2026' };

describe(`auth bad input: 400 VALIDATION_FAILED and nothing written (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let admin: TBuiltAccount;
  let ipSeq = 0;
  beforeAll(async () => {
    server = await startTestServer({ trustProxy: ['127.0.0.1'] });
    vendor = await buildAccount(server, { level: 'vendor' });
    admin = await buildAccount(server, { level: 'admin' });
  });
  afterAll(() => server.stop());

  const send = (method: TCase[0], url: string, body: unknown, token?: string) =>
    server.api<TErr>(method, url, { body, token, headers: { 'x-forwarded-for': `10.1.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` } });

  async function snapshot() {
    const tables = [accounts, tenants, verificationCodes, outboxEmails, apiKeys, refreshTokens];
    const counts = await Promise.all(tables.map(async (t) => (await server.ctx.db.select({ n: count() }).from(t))[0].n));
    const [me] = await server.ctx.db.select().from(accounts).where(eq(accounts.id, vendor.accountId));
    return { counts, me };
  }

  const reg = registerBody('new@example.com', '123456');
  const cases: TCase[] = [
    ['POST', paths.verifyEmail, { email: 'a@example.com', purpose: 'register' }, 'email', [tooLongEmail, 'not-an-email', 42, null]],
    ['POST', paths.verifyEmail, { email: 'a@example.com', purpose: 'register' }, 'purpose', ['other', 1]],
    ['POST', paths.verifyEmail, { email: 'a@example.com', purpose: 'register' }, 'language', ['fr', 7]],
    ['POST', paths.register, reg, 'email', [tooLongEmail, 'nope', 1]],
    ['POST', paths.register, reg, 'code', ['1234567', '12345', 'abcdef', 123456]],
    ['POST', paths.register, reg, 'password', [long(PASSWORD_MAX + 1), 'Ab#1', 12345678]],
    ['POST', paths.register, reg, 'confirm_password', ['Different#1', 5]],
    ['POST', paths.register, reg, 'name', [long(NAME_MAX + 1), '', '   ', 9]],
    ['POST', paths.register, reg, 'role', ['admin', true]],
    ['POST', paths.register, reg, 'language', ['fr', 0]],
    ['POST', paths.login, { email: 'a@example.com', password: TEST_PASSWORD, role: 'vendor' }, 'email', [tooLongEmail, 3]],
    ['POST', paths.login, { email: 'a@example.com', password: TEST_PASSWORD, role: 'vendor' }, 'password', [long(129), '', 5]],
    ['POST', paths.login, { email: 'a@example.com', password: TEST_PASSWORD, role: 'vendor' }, 'role', ['admin', undefined, 1]],
    ['POST', paths.refreshToken, { refresh_token: 'abc' }, 'refresh_token', [long(257), '', 5, undefined]],
    ['POST', paths.refreshToken, { refresh_token: 'abc' }, 'platform', [long(33), 5]],
    ['POST', paths.logout, {}, 'refresh_token', [long(257), 5]],
    ['POST', paths.forgotPwd, { email: 'a@example.com' }, 'email', [tooLongEmail, 5]],
    ['POST', paths.forgotPwd, { email: 'a@example.com' }, 'language', ['de']],
    [
      'POST',
      paths.resetPwd,
      { email: 'a@example.com', code: '123456', password: 'Abcd#1234', confirm_password: 'Abcd#1234' },
      'code',
      ['12', 1],
    ],
    [
      'POST',
      paths.resetPwd,
      { email: 'a@example.com', code: '123456', password: 'Abcd#1234', confirm_password: 'Abcd#1234' },
      'password',
      ['short', long(PASSWORD_MAX + 1)],
    ],
  ];
  const authed: [...TCase, 'vendor' | 'admin'][] = [
    ['PUT', paths.profile, { name: 'Ok' }, 'name', [long(NAME_MAX + 1), '', 5], 'vendor'],
    ['PUT', paths.profile, { name: 'Ok' }, 'language', ['fr', 1], 'vendor'],
    ['PUT', paths.pwd, newPwd, 'old_password', [long(129), '', 3], 'vendor'],
    ['PUT', paths.pwd, newPwd, 'password', [long(PASSWORD_MAX + 1), 'abc', 5], 'vendor'],
    ['PUT', paths.pwd, newPwd, 'confirm_password', ['Mismatch#1'], 'vendor'],
    ['POST', paths.apiKeys, { name: 'k', expires_at: null }, 'name', [long(TOKEN_NAME_MAX + 1), '', 4], 'vendor'],
    ['POST', paths.apiKeys, { name: 'k', expires_at: null }, 'expires_at', ['tomorrow', -5, 1.5, undefined], 'vendor'],
    ['POST', paths.apiKeyRevoke, { id: 1 }, 'id', ['one', 0, -1, 1.5], 'vendor'],
    ['POST', paths.adminSwitch, { account_id: 1 }, 'account_id', ['x', 0, null], 'admin'],
  ];

  it('refuses every bad body field with 400 VALIDATION_FAILED naming it, and writes nothing', async () => {
    const before = await snapshot();
    for (const [method, url, valid, field, bads, who] of [...cases.map((c) => [...c, undefined] as const), ...authed]) {
      const token = who === 'admin' ? admin.token : who === 'vendor' ? vendor.token : undefined;
      for (const bad of bads) {
        const res = await send(method, url, { ...valid, [field]: bad }, token);
        const label = `${method} ${url} ${field}=${JSON.stringify(bad)?.slice(0, 20)}`;
        expect(res.status, label).toBe(400);
        expect(res.body.code, label).toBe('VALIDATION_FAILED');
        expect(
          res.body.details?.some((d) => d.path.includes(field)),
          `${label}: ${JSON.stringify(res.body)}`,
        ).toBe(true);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses bad list queries', async () => {
    for (const q of [`limit=${MAX_PAGE_LIMIT + 1}`, 'page=0', 'limit=abc', `q=${long(65)}`]) {
      expect((await server.api('GET', `${paths.adminAccounts}?${q}`, { token: admin.token })).status, q).toBe(400);
      expect((await server.api('GET', `${paths.apiKeys}?${q}`, { token: vendor.token })).status, q).toBe(400);
    }
  });

  it(`register enforces the password rule: ${PASSWORD_MIN} and ${PASSWORD_MAX} characters pass, one less or more and a missing class fail`, async () => {
    const at = (n: number) => `Aa#1${'b'.repeat(n - 4)}`;
    for (const password of [at(PASSWORD_MIN - 1), at(PASSWORD_MAX + 1), 'abcd#1234', 'ABCD#1234', 'Abcd#efgh', 'Abcd12345']) {
      const email = uniqueEmail('rule');
      const code = await requestRegisterCode(server, email);
      const res = await send('POST', paths.register, registerBody(email, code, { password, confirm_password: password }));
      expect(res.status, password).toBe(400);
      expect(res.body.details?.[0].path).toContain('password');
      expect(await server.ctx.db.select().from(accounts).where(eq(accounts.email, email))).toHaveLength(0);
    }
    for (const password of [at(PASSWORD_MIN), at(PASSWORD_MAX)]) {
      const email = uniqueEmail('rule');
      const code = await requestRegisterCode(server, email);
      const res = await send('POST', paths.register, registerBody(email, code, { password, confirm_password: password }));
      expect(res.status, `${password}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it('register with a taken email answers 409 EMAIL_TAKEN and leaves the code usable', async () => {
    const code = await requestRegisterCode(server, vendor.email);
    const before = await snapshot();
    const res = await send('POST', paths.register, registerBody(vendor.email, code));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_TAKEN');
    expect(await snapshot()).toEqual(before);
  });

  it('register with a wrong or expired code answers 400 AUTH_CODE_INVALID and creates nothing', async () => {
    const email = uniqueEmail('late');
    const code = await requestRegisterCode(server, email);
    await server.ctx.db
      .update(verificationCodes)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(verificationCodes.email, email));
    const expired = await send('POST', paths.register, registerBody(email, code));
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ code: 'AUTH_CODE_INVALID', message: 'verification code expired or wrong' });
    const never = await send('POST', paths.register, registerBody(uniqueEmail('never'), '123456'));
    expect(never.body.code).toBe('AUTH_CODE_INVALID');
    expect(await server.ctx.db.select().from(accounts).where(eq(accounts.email, email))).toHaveLength(0);
  });
});
