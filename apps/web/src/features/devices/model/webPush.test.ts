import { describe, expect, it } from 'vitest';
import { base64UrlToBytes } from './webPush';

describe('VAPID key decoding', () => {
  it('reads a base64url P-256 public key as its 65 raw bytes', () => {
    const key = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
    const bytes = base64UrlToBytes(key);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
    expect(Buffer.from(bytes).toString('base64url')).toBe(key);
  });
});
