/**
 * Who may speak for the client (TRUST_PROXY) and the HTTPS-only security headers (core/security-headers.ts;
 * docs/deployment.md "Behind a reverse proxy"). app.inject's peer is 127.0.0.1.
 */
import { paths } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../test/helpers.js';
import { uniqueEmail } from '../../test/factories.js';
import { RATE_LIMITS } from '../modules/auth/rate-limits.js';
import { HSTS_HEADER } from './security-headers.js';

/** A wrong login for a new email each time (one email alone is slowed down sooner than the per-address limit). */
const wrongLogin = (server: TTestServer, headers: Record<string, string>) =>
  server.api('POST', paths.login, { body: { email: uniqueEmail('guess'), password: 'Wrong#2026x', role: 'vendor' }, headers });

describe(`client address and scheme from proxies (${TEST_DB_KIND})`, () => {
  let direct: TTestServer;
  let proxied: TTestServer;
  beforeAll(async () => {
    direct = await startTestServer();
    proxied = await startTestServer({ trustProxy: ['127.0.0.1'] }, direct.database);
  });
  afterAll(async () => {
    await proxied?.stop();
    await direct?.stop();
  });

  it('ignores X-Forwarded-For from a client when no proxy is configured: the login limit holds', async () => {
    for (let i = 0; i < RATE_LIMITS.loginPerIp.max; i++) {
      expect((await wrongLogin(direct, { 'x-forwarded-for': `203.0.113.${i}` })).status).toBe(401);
    }
    const limited = await wrongLogin(direct, { 'x-forwarded-for': '198.51.100.77' });
    expect(limited.status).toBe(429);
  });

  it('takes the client address from a configured proxy', async () => {
    for (let i = 0; i <= RATE_LIMITS.loginPerIp.max; i++) {
      expect((await wrongLogin(proxied, { 'x-forwarded-for': `192.0.2.${i}` })).status).toBe(401);
    }
  });

  it('sends neither upgrade-insecure-requests nor HSTS over plain HTTP, even when a client claims https', async () => {
    for (const headers of [{}, { 'x-forwarded-proto': 'https' }] as Record<string, string>[]) {
      const res = await direct.api('GET', '/healthz', { headers });
      expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
      expect(String(res.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('sends both when a trusted proxy says the request came over HTTPS', async () => {
    const res = await proxied.api('GET', '/healthz', { headers: { 'x-forwarded-proto': 'https' } });
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    expect(res.headers['strict-transport-security']).toBe(HSTS_HEADER);
    const plain = await proxied.api('GET', '/healthz');
    expect(String(plain.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
  });
});
