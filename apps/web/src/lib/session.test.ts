/** Local login storage (spec §3) and token decoding. */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { clearSession, getLanguage, getSession, saveLanguage, saveTokens, subscribeSession } from './session';

const token = (claims: Record<string, unknown>) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('42')
    .setExpirationTime('15m')
    .sign(new TextEncoder().encode('k'.repeat(32)));

describe('session', () => {
  it('stores both tokens and decodes level, fea, email, tid and exp; notifies subscribers', async () => {
    let calls = 0;
    const off = subscribeSession(() => calls++);
    saveTokens(await token({ tid: 7, email: 'v@example.com', level: 'vendor', fea: ['2', '3'] }), 'r1');
    off();
    const s = getSession();
    expect(s).toMatchObject({ refreshToken: 'r1', level: 'vendor', fea: ['2', '3'], email: 'v@example.com', tid: 7, accountId: '42' });
    expect(s.exp).toBeGreaterThan(Date.now() / 1000);
    expect(calls).toBe(1);
    expect(getSession()).toBe(s);
  });

  it('logout clears the login keys but keeps the language', async () => {
    saveTokens(await token({ tid: 1, email: 'u@example.com', level: 'user', fea: ['4'] }), 'r');
    saveLanguage('en');
    clearSession();
    expect(getSession()).toMatchObject({ token: null, refreshToken: null, email: null, level: undefined, fea: [] });
    expect(getLanguage()).toBe('en');
  });

  it('a malformed token gives no level and no features', () => {
    saveTokens('not-a-jwt', 'r');
    expect(getSession()).toMatchObject({ token: 'not-a-jwt', level: undefined, fea: [] });
    clearSession();
  });
});
