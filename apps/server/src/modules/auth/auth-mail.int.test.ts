import { and, eq } from 'drizzle-orm';
import { paths, type TProfile, type TTokenResponse } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, outboxEmails } from '../../db/schema.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { uniqueEmail } from '../../../test/factories.js';
import { startSmtpSink, type TSmtpSink } from '../mail/smtp-sink.fixture.js';

const PASSWORD = 'Abcd#1234';

describe(`sign-up and password reset by mail over real SMTP (${TEST_DB_KIND})`, () => {
  let smtp: TSmtpSink;
  let server: TTestServer;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ smtpUrl: smtp.url });
  });
  afterAll(async () => {
    await server.stop();
    await smtp.stop();
  });

  const codeIn = (text: string) => text.match(/\b(\d{6})\b/)?.[1];

  it('verify-email → code by mail → register → login → profile', async () => {
    const email = uniqueEmail('signup');
    expect(
      (await server.api('POST', paths.verifyEmail, { body: { email: email.toUpperCase(), purpose: 'register', language: 'en' } })).status,
    ).toBe(204);
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    const code = codeIn(mail.text);
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.subject).toContain(code);

    const reg = await server.api<TTokenResponse>('POST', paths.register, {
      body: { email, code, password: PASSWORD, confirm_password: PASSWORD, name: 'Acme Ltd', role: 'vendor', language: 'en' },
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    expect(reg.body.token).toBeTruthy();
    expect(reg.body.refresh_token).toBeTruthy();

    const login = await server.api<TTokenResponse>('POST', paths.login, { body: { email, password: PASSWORD, role: 'vendor' } });
    expect(login.status).toBe(200);
    const profile = await server.api<TProfile>('GET', paths.profile, { token: login.body.token });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ email, name: 'Acme Ltd', level: 'vendor', tenant_name: 'Acme Ltd', language: 'en' });
    expect(profile.body.fea).toContain('2');

    // The code is single-use: replaying it is refused before the email is even looked at.
    const again = await server.api<{ code: string }>('POST', paths.register, {
      body: { email, code, password: PASSWORD, confirm_password: PASSWORD, name: 'Again', role: 'vendor' },
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('AUTH_CODE_INVALID');
  });

  it('forgot-pwd mails a reset code in the account language; reset-pwd sets the password and ends sessions', async () => {
    const email = uniqueEmail('reset');
    await server.api('POST', paths.verifyEmail, { body: { email, purpose: 'register' } });
    const code = codeIn((await smtp.waitFor((m) => m.to.includes(email))).text);
    const reg = await server.api<TTokenResponse>('POST', paths.register, {
      body: { email, code, password: PASSWORD, confirm_password: PASSWORD, name: 'Resetter', role: 'user', language: 'zh-TW' },
    });
    expect(reg.status).toBe(200);

    expect((await server.api('POST', paths.forgotPwd, { body: { email } })).status).toBe(204);
    const resetMail = await smtp.waitFor((m) => m.to.includes(email) && m.subject.includes('重設密碼'));
    const resetCode = codeIn(resetMail.text)!;

    const newPassword = 'Newpass#99';
    const wrong = await server.api<{ code: string }>('POST', paths.resetPwd, {
      body: { email, code: resetCode === '000000' ? '000001' : '000000', password: newPassword, confirm_password: newPassword },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('AUTH_CODE_INVALID');
    const ok = await server.api('POST', paths.resetPwd, {
      body: { email, code: resetCode, password: newPassword, confirm_password: newPassword },
    });
    expect(ok.status).toBe(204);

    expect((await server.api('POST', paths.login, { body: { email, password: PASSWORD, role: 'user' } })).status).toBe(401);
    expect((await server.api('POST', paths.login, { body: { email, password: newPassword, role: 'user' } })).status).toBe(200);
    const refresh = await server.api<{ code: string }>('POST', paths.refreshToken, { body: { refresh_token: reg.body.refresh_token } });
    expect(refresh.status).toBe(401);
    expect(refresh.body.code).toBe('UAE0007');
  });

  it('forgot-pwd for an unknown email answers 204 and mails nothing', async () => {
    const email = uniqueEmail('nobody');
    expect((await server.api('POST', paths.forgotPwd, { body: { email } })).status).toBe(204);
    const queued = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, email));
    expect(queued).toHaveLength(0);
  });

  it('writes the code mail in zh-TW by default and in English on request', async () => {
    const zh = uniqueEmail('zh');
    const en = uniqueEmail('en');
    await server.api('POST', paths.verifyEmail, { body: { email: zh, purpose: 'register' } });
    await server.api('POST', paths.verifyEmail, { body: { email: en, purpose: 'register', language: 'en' } });
    const zhMail = await smtp.waitFor((m) => m.to.includes(zh));
    const enMail = await smtp.waitFor((m) => m.to.includes(en));
    expect(zhMail.subject).toMatch(/^Tessera 驗證碼：\d{6}$/);
    expect(zhMail.text).toContain('分鐘內有效');
    expect(enMail.subject).toMatch(/^Your Tessera verification code: \d{6}$/);
    expect(enMail.text).toContain('valid for 10 minutes');
  });

  it('a wrong code counts: after the allowed attempts even the right code is refused', async () => {
    const email = uniqueEmail('guess');
    await server.api('POST', paths.verifyEmail, { body: { email, purpose: 'register' } });
    const code = codeIn((await smtp.waitFor((m) => m.to.includes(email))).text)!;
    const wrongCode = code === '123456' ? '654321' : '123456';
    const body = (c: string) => ({ email, code: c, password: PASSWORD, confirm_password: PASSWORD, name: 'G', role: 'vendor' });
    for (let i = 0; i < 5; i++) expect((await server.api('POST', paths.register, { body: body(wrongCode) })).status).toBe(400);
    const res = await server.api<{ code: string; message: string }>('POST', paths.register, { body: body(code) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'AUTH_CODE_INVALID', message: 'verification code expired or wrong' });
    expect(
      await server.ctx.db
        .select()
        .from(accounts)
        .where(and(eq(accounts.email, email))),
    ).toHaveLength(0);
  });
});
