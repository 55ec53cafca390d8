/** The zod → form-rule adapter, with the contracts' real schemas. */
import { NAME_MAX, ZChangePasswordRequest, ZEmail, ZProductCreate, ZResetPasswordRequest } from '@tessera/contracts';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { fieldError } from './zodRules';

const t = (key: string, o?: Record<string, string | number>) => (o ? `${key}:${JSON.stringify(o)}` : key);
const product = { name: 'Fan', model: 'F1', number: '001' };

describe('fieldError', () => {
  it('passes a valid field', () => {
    expect(fieldError(ZProductCreate, 'name', product, t)).toBeNull();
  });
  it('reports an empty required field as required', () => {
    expect(fieldError(ZProductCreate, 'name', { ...product, name: '' }, t)).toBe('validation.required');
    expect(fieldError(ZProductCreate, 'model', { ...product, model: undefined }, t)).toBe('validation.required');
  });
  it('reports the limit of a field over it, and accepts the exact bound', () => {
    expect(fieldError(ZProductCreate, 'name', { ...product, name: 'x'.repeat(NAME_MAX + 1) }, t)).toBe(
      `validation.max:{"max":${NAME_MAX}}`,
    );
    expect(fieldError(ZProductCreate, 'name', { ...product, name: 'x'.repeat(NAME_MAX) }, t)).toBeNull();
  });
  it('reports only issues of its own field', () => {
    expect(fieldError(ZProductCreate, 'name', { ...product, model: '' }, t)).toBeNull();
  });
  it('maps email and password rules', () => {
    expect(fieldError(z.object({ email: ZEmail }), 'email', { email: 'nope' }, t)).toBe('validation.email');
    const reset = { email: 'a@b.co', code: '123456', password: 'abcdefgh', confirm_password: 'abcdefgh' };
    expect(fieldError(ZResetPasswordRequest, 'password', reset, t)).toBe('validation.upper');
    expect(fieldError(ZResetPasswordRequest, 'code', { ...reset, code: '12' }, t)).toBe('validation.sixDigits');
  });
  it('puts cross-field rules on their field', () => {
    const change = { old_password: 'Old#2026a', password: 'New#2026a', confirm_password: 'New#2026b' };
    expect(fieldError(ZChangePasswordRequest, 'confirm_password', change, t)).toBe('validation.mismatch');
    const same = { old_password: 'Old#2026a', password: 'Old#2026a', confirm_password: 'Old#2026a' };
    expect(fieldError(ZChangePasswordRequest, 'password', same, t)).toBe('validation.sameAsOld');
  });
});
