import { AUDIT_MASK } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { AUDIT_VALUE_MAX_CHARS, bodyChanges, diffFields, isSecretField } from './changes.js';

describe('audit changes', () => {
  it('keeps only the fields that changed', () => {
    expect(diffFields({ name: 'a', model: 'm', updated_at: 1 }, { name: 'b', model: 'm', updated_at: 2 })).toEqual({
      name: { before: 'a', after: 'b' },
    });
  });

  it('lists every field set on a creation and every field held on a deletion', () => {
    expect(diffFields(null, { id: 3, name: 'x', note: null })).toEqual({
      id: { before: null, after: 3 },
      name: { before: null, after: 'x' },
    });
    expect(diffFields({ id: 3, name: 'x' }, null)).toEqual({ id: { before: 3, after: null }, name: { before: 'x', after: null } });
  });

  it('masks secrets but still shows that they changed', () => {
    const changes = diffFields({ secret_hash: 'aaa', password_hash: 'h' }, { secret_hash: 'bbb', password_hash: 'h' });
    expect(changes).toEqual({ secret_hash: { before: AUDIT_MASK, after: AUDIT_MASK } });
    expect(JSON.stringify(bodyChanges({ password: 'Pa$$w0rd!', old_password: 'x', refresh_token: 't', api_key: 'k' }))).not.toMatch(
      /Pa\$\$|"x"|"t"|"k"/,
    );
  });

  it('tells secrets from ordinary fields', () => {
    for (const name of ['password', 'key_hash', 'token_hash', 'channel_secret', 'access_token', 'secret', 'code', 'api_key']) {
      expect(isSecretField(name), name).toBe(true);
    }
    for (const name of ['key', 'name', 'nickname', 'emails', 'unit', 'prefix']) expect(isSecretField(name), name).toBe(false);
  });

  it('keeps a very long value as its size and digest', () => {
    const long = 'x'.repeat(AUDIT_VALUE_MAX_CHARS + 1);
    const after = diffFields(null, { html: long }).html.after as { chars: number; sha256: string };
    expect(after.chars).toBe(long.length + 2);
    expect(after.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records nothing of a body that is not an object', () => {
    expect(bodyChanges(null)).toEqual({});
    expect(bodyChanges([1, 2])).toEqual({});
  });
});
