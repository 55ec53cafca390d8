/**
 * Who may speak for the client (TRUST_PROXY), the security headers every answer carries and the HTTPS-only ones
 * (core/security-headers.ts; docs/deployment.md "Behind a reverse proxy"), and the request id. app.inject's peer is
 * 127.0.0.1.
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

  it("answers 200, 400, 401 and 404 alike with helmet's headers and the request id (the caller's, or a new one)", async () => {
    const answers = [
      await direct.api('GET', '/healthz'),
      await direct.api('GET', `${paths.products}?name=a%00b`),
      await direct.api('GET', paths.products),
      await direct.api('GET', '/frontstage/v1/no-such-route'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 401, 404]);
    for (const res of answers) {
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['origin-agent-cluster']).toBe('?1');
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
      expect(String(res.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(new Set(answers.map((r) => r.headers['x-request-id'])).size).toBe(answers.length);
    const named = await direct.api('GET', '/healthz', { headers: { 'x-request-id': 'trace-42' } });
    expect(named.headers['x-request-id']).toBe('trace-42');
  });

  it('refuses NUL in a JSON body before auth, and leaves a body kept as bytes to its route (a device API)', async () => {
    const json = await direct.api<{ message: string }>('POST', paths.products, { body: { name: 'a\u0000b' } });
    expect(json.status).toBe(400);
    expect(json.body.message).toContain('body.name');
    const bytes = await direct.api('POST', '/api/v1/no-such-token/telemetry', { body: { temperature: 'a\u0000b' } });
    expect(bytes.status).toBe(401);
  });
});
