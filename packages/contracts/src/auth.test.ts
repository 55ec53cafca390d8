/** The §5 password rule and the other auth request schemas, at their bounds. */
import { describe, expect, it } from 'vitest';
import { ZApiKeyCreate, ZChangePasswordRequest, ZEmail, ZPassword, ZRegisterRequest, ZVerifyCode } from './auth.js';
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN, TOKEN_NAME_MAX } from './limits.js';

/** A password of exactly `n` characters with every class. */
const withLength = (n: number) => `Aa#1${'b'.repeat(n - 4)}`;

describe('ZPassword (§5: 8–16 characters with upper, lower, digit and special)', () => {
  it(`accepts ${PASSWORD_MIN} and ${PASSWORD_MAX} characters`, () => {
    expect(ZPassword.safeParse(withLength(PASSWORD_MIN)).success).toBe(true);
    expect(ZPassword.safeParse(withLength(PASSWORD_MAX)).success).toBe(true);
  });
  it(`refuses ${PASSWORD_MIN - 1} and ${PASSWORD_MAX + 1} characters`, () => {
    expect(ZPassword.safeParse(withLength(PASSWORD_MIN - 1)).success).toBe(false);
    expect(ZPassword.safeParse(withLength(PASSWORD_MAX + 1)).success).toBe(false);
  });
  it.each([
    ['no upper-case letter', 'abcd#1234'],
    ['no lower-case letter', 'ABCD#1234'],
    ['no digit', 'Abcd#efgh'],
    ['no special character', 'Abcd12345'],
  ])('refuses a password with %s', (_why, password) => {
    expect(ZPassword.safeParse(password).success).toBe(false);
  });
  it('counts any non-alphanumeric character as special, a space or CJK included', () => {
    expect(ZPassword.safeParse('Abcd 1234').success).toBe(true);
    expect(ZPassword.safeParse('Abcd密1234').success).toBe(true);
  });
});

describe('ZRegisterRequest', () => {
  const valid = { email: ' New@Example.COM ', code: '012345', password: 'Abcd#1234', confirm_password: 'Abcd#1234', name: 'Acme' };
  it('normalises the email and fills role and language defaults', () => {
    expect(ZRegisterRequest.parse(valid)).toMatchObject({ email: 'new@example.com', role: 'vendor', language: 'zh-TW' });
  });
  it('refuses a confirmation that does not match', () => {
    const r = ZRegisterRequest.safeParse({ ...valid, confirm_password: 'Abcd#12345' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['confirm_password']);
  });
  it('refuses an admin role (admins are not self-registered)', () => {
    expect(ZRegisterRequest.safeParse({ ...valid, role: 'admin' }).success).toBe(false);
  });
});

describe('ZChangePasswordRequest', () => {
  it('refuses a new password equal to the old one (§5 "new differs from old")', () => {
    const r = ZChangePasswordRequest.safeParse({ old_password: 'Abcd#1234', password: 'Abcd#1234', confirm_password: 'Abcd#1234' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['password']);
  });
});

describe('other auth fields at their bounds', () => {
  it('ZEmail allows exactly EMAIL_MAX characters and no more', () => {
    const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(EMAIL_MAX - 64 - 1 - 63 - 1 - 63 - 1 - 4)}.com`;
    const longest = `${'a'.repeat(64)}@${domain}`;
    expect(longest).toHaveLength(EMAIL_MAX);
    expect(ZEmail.safeParse(longest).success).toBe(true);
    expect(ZEmail.safeParse(`a${longest}`).success).toBe(false);
  });
  it('ZVerifyCode is exactly six digits', () => {
    expect(ZVerifyCode.safeParse('000000').success).toBe(true);
    for (const bad of ['12345', '1234567', '12345a']) expect(ZVerifyCode.safeParse(bad).success).toBe(false);
  });
  it(`an API key name is 1–${TOKEN_NAME_MAX} characters; expires_at is a positive integer or null`, () => {
    expect(ZApiKeyCreate.safeParse({ name: 'x'.repeat(TOKEN_NAME_MAX), expires_at: null }).success).toBe(true);
    expect(ZApiKeyCreate.safeParse({ name: 'x'.repeat(TOKEN_NAME_MAX + 1), expires_at: null }).success).toBe(false);
    expect(ZApiKeyCreate.safeParse({ name: '', expires_at: null }).success).toBe(false);
    expect(ZApiKeyCreate.safeParse({ name: 'k', expires_at: 0 }).success).toBe(false);
  });
});
