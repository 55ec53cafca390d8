/** Local login storage (spec §3) and token decoding. */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  actAs,
  adminReturn,
  clearSession,
  getLanguage,
  getSession,
  returnToAdmin,
  saveLanguage,
  saveTokens,
  subscribeSession,
} from './session';

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

  it('acting as another account keeps the admin session for the way back; logout forgets both', async () => {
    const adminToken = await token({ tid: 1, email: 'admin@example.com', level: 'admin', fea: ['*'] });
    saveTokens(adminToken, 'admin-refresh');
    actAs({ token: await token({ tid: 9, email: 'v@example.com', level: 'vendor', fea: ['2'] }), refresh_token: 'v-refresh' });
    expect(getSession()).toMatchObject({ email: 'v@example.com', level: 'vendor', refreshToken: 'v-refresh' });
    expect(adminReturn()).toEqual({ token: adminToken, refresh_token: 'admin-refresh', email: 'admin@example.com' });
    // A second switch while acting keeps the admin's own session, not the account acted as.
    actAs({ token: await token({ tid: 9, email: 'u@example.com', level: 'user', fea: ['4'] }), refresh_token: 'u-refresh' });
    expect(adminReturn()?.email).toBe('admin@example.com');
    returnToAdmin();
    expect(getSession()).toMatchObject({ email: 'admin@example.com', level: 'admin', refreshToken: 'admin-refresh' });
    expect(adminReturn()).toBeNull();

    actAs({ token: await token({ tid: 9, email: 'v@example.com', level: 'vendor', fea: ['2'] }), refresh_token: 'v-refresh' });
    clearSession();
    expect(adminReturn()).toBeNull();
    expect(getSession().token).toBeNull();
  });
});
