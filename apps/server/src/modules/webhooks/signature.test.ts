import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValidWebhookSignature, signWebhook } from './signature.js';

describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const body = '{"event":"alert.opened"}';

  it('is v1= and the hex HMAC-SHA256 of "<timestamp>.<body>"', () => {
    const hex = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(signWebhook(secret, 1_700_000_000, body)).toBe(`v1=${hex}`);
  });

  it('checks out for the same secret, body and a fresh timestamp', () => {
    const signature = signWebhook(secret, 1_700_000_000, body);
    expect(isValidWebhookSignature({ secret, timestampS: 1_700_000_000, body, signature, nowS: 1_700_000_010 })).toBe(true);
  });

  it('fails for another body, another secret or an old timestamp (a replay)', () => {
    const signature = signWebhook(secret, 1_700_000_000, body);
    const base = { secret, timestampS: 1_700_000_000, body, signature, nowS: 1_700_000_010 };
    expect(isValidWebhookSignature({ ...base, body: `${body} ` })).toBe(false);
    expect(isValidWebhookSignature({ ...base, secret: 'whsec_other' })).toBe(false);
    expect(isValidWebhookSignature({ ...base, nowS: 1_700_000_000 + 301 })).toBe(false);
  });
});
