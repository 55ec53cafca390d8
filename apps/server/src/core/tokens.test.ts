import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenService } from './tokens.js';

const SECRET = 'a-secret-of-the-test-that-is-long-enough-for-hs256';
const payload = { sub: '7', tid: 3, email: 'a@example.com', level: 'vendor' as const, fea: ['1'] };

/** A token signed the way tokens were signed before the key was imported once: jose handed the secret's bytes. */
function signWithBytes(claims: Record<string, unknown>, expS: number): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('7')
    .setExpirationTime(expS)
    .sign(new TextEncoder().encode(SECRET));
}

describe('access tokens with the key imported once', () => {
  // The service never reads the database when the secret comes from the environment.
  const create = () => TokenService.create(undefined as never, SECRET);

  it('verifies what it signs, with its payload', async () => {
    const tokens = await create();
    const verified = await tokens.verify(await tokens.sign(payload));
    expect(verified).toEqual({ ok: true, payload: expect.objectContaining(payload) });
  });

  it('still accepts a token signed with the raw secret bytes (tokens issued before a restart stay valid)', async () => {
    const tokens = await create();
    const token = await signWithBytes({ tid: 3, email: 'a@example.com', level: 'vendor', fea: ['1'] }, Math.floor(Date.now() / 1000) + 60);
    expect(await tokens.verify(token)).toEqual({ ok: true, payload: expect.objectContaining(payload) });
  });

  it('refuses a token of another secret as invalid and an old one as expired', async () => {
    const tokens = await create();
    const other = await TokenService.create(undefined as never, `${SECRET}-other`);
    expect(await tokens.verify(await other.sign(payload))).toEqual({ ok: false, reason: 'invalid' });
    const old = await signWithBytes({ tid: 3, email: 'a@example.com', level: 'vendor', fea: ['1'] }, Math.floor(Date.now() / 1000) - 60);
    expect(await tokens.verify(old)).toEqual({ ok: false, reason: 'expired' });
  });
});
