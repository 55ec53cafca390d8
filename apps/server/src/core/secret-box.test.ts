import { describe, expect, it } from 'vitest';
import { createSecretBox, maskSecret } from './secret-box.js';

const KEY = 'k'.repeat(40);

describe('secret box (AES-256-GCM)', () => {
  it('round-trips a secret and never writes it in the clear; each sealing differs', () => {
    const box = createSecretBox(KEY);
    const a = box.encrypt('channel-secret-1234', 'line:1:channel_secret');
    const b = box.encrypt('channel-secret-1234', 'line:1:channel_secret');
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('channel-secret');
    expect(a).not.toBe(b);
    expect(box.decrypt(a, 'line:1:channel_secret')).toBe('channel-secret-1234');
  });

  it('refuses another context, another key and an altered ciphertext', () => {
    const box = createSecretBox(KEY);
    const sealed = box.encrypt('token', 'line:1:access_token');
    expect(() => box.decrypt(sealed, 'line:2:access_token')).toThrow();
    expect(() => createSecretBox('x'.repeat(40)).decrypt(sealed, 'line:1:access_token')).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(() => box.decrypt(`v1.${raw.toString('base64url')}`, 'line:1:access_token')).toThrow();
    expect(() => box.decrypt('v0.abc', 'line:1:access_token')).toThrow('unknown secret format');
  });

  it('masks a secret to its last 4 characters', () => {
    expect(maskSecret('0123456789abcdef')).toBe('••••cdef');
  });
});
