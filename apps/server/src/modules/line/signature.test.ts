import { describe, expect, it } from 'vitest';
import { isValidLineSignature, signLineBody } from './signature.js';

const SECRET = '8c570fa6dd201bb328f1c1eac23a96d8';
const BODY = Buffer.from('{"destination":"U1","events":[]}');

describe('LINE webhook signature', () => {
  it('is the base64 HMAC-SHA256 of the raw body under the channel secret', () => {
    // Computed independently: printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET" -binary | base64
    expect(signLineBody(BODY, SECRET)).toBe('wkdF2jkT9qcI9xo3dy8DgHvcuPACq9NJ3RqICYTQy/0=');
  });

  it('accepts the right signature and refuses none, a wrong one, another secret and a changed body', () => {
    const good = signLineBody(BODY, SECRET);
    expect(isValidLineSignature(BODY, SECRET, good)).toBe(true);
    expect(isValidLineSignature(BODY, SECRET, undefined)).toBe(false);
    expect(isValidLineSignature(BODY, SECRET, '')).toBe(false);
    expect(isValidLineSignature(BODY, SECRET, 'abc')).toBe(false);
    expect(isValidLineSignature(BODY, 'ffffffffffffffffffffffffffffffff', good)).toBe(false);
    expect(isValidLineSignature(Buffer.from('{"destination":"U1","events":[{}]}'), SECRET, good)).toBe(false);
  });
});
