import { describe, expect, it } from 'vitest';
import { assertWebhookDestination, isPrivateAddress } from './destination-policy.js';

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local (metadata), CGNAT and IPv6 local ranges', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::2',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
  });
  it('lets public addresses through', () => {
    for (const a of ['8.8.8.8', '203.0.113.7', '2001:4860:4860::8888']) expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe('assertWebhookDestination', () => {
  it('refuses a loopback name and literal unless private networks are allowed', async () => {
    await expect(assertWebhookDestination('http://127.0.0.1:9/x', false)).rejects.toThrow(/private network/);
    await expect(assertWebhookDestination('http://[::1]:9/x', false)).rejects.toThrow(/private network/);
    await expect(assertWebhookDestination('http://localhost:9/x', false)).rejects.toThrow(/private network/);
    await expect(assertWebhookDestination('http://127.0.0.1:9/x', true)).resolves.toBeUndefined();
  });
});
