import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

  describe('remembered as verified', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('answers a token verified before as expired once its expiry passes', async () => {
      const tokens = await create();
      const token = await tokens.sign(payload, 60);
      expect((await tokens.verify(token)).ok).toBe(true);
      expect((await tokens.verify(token)).ok).toBe(true);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
      expect(await tokens.verify(token)).toEqual({ ok: false, reason: 'expired' });
    });

    it('does not let a token with an altered signature or payload pass because the genuine one was verified', async () => {
      const tokens = await create();
      const token = await tokens.sign(payload);
      expect((await tokens.verify(token)).ok).toBe(true);
      const [header, body, signature] = token.split('.') as [string, string, string];
      const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`;
      expect(await tokens.verify(`${header}.${body}.${flipped}`)).toEqual({ ok: false, reason: 'invalid' });
      const admin = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), level: 'admin' })).toString(
        'base64url',
      );
      expect(await tokens.verify(`${header}.${admin}.${signature}`)).toEqual({ ok: false, reason: 'invalid' });
    });
  });
});
