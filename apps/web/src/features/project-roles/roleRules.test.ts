import { PROJECT_ROLE_DEVICES_MAX, PROJECT_ROLE_NAME_MAX } from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import { roleFieldError } from './roleRules';

const t = (key: string, options?: Record<string, string | number>) => (options ? `${key} ${JSON.stringify(options)}` : key);

describe('roleFieldError', () => {
  it(`name: required, at most ${PROJECT_ROLE_NAME_MAX}`, () => {
    expect(roleFieldError('name', 'n'.repeat(PROJECT_ROLE_NAME_MAX), t)).toBeNull();
    expect(roleFieldError('name', 'n'.repeat(PROJECT_ROLE_NAME_MAX + 1), t)).toBe(`validation.max {"max":${PROJECT_ROLE_NAME_MAX}}`);
    expect(roleFieldError('name', ' ', t)).toBe('validation.required');
  });

  it('lists: at least one permission and one device; members may be empty', () => {
    expect(roleFieldError('permissions', [], t)).toBe('projectRoles.rules.permissions.min');
    expect(roleFieldError('device_ids', [], t)).toBe('projectRoles.rules.device_ids.min');
    expect(roleFieldError('member_emails', [], t)).toBeNull();
    expect(roleFieldError('permissions', ['view_history'], t)).toBeNull();
    const many = Array.from({ length: PROJECT_ROLE_DEVICES_MAX + 1 }, (_, i) => i + 1);
    expect(roleFieldError('device_ids', many, t)).toBe(`projectRoles.rules.max {"max":${PROJECT_ROLE_DEVICES_MAX}}`);
  });

  it('names the bad or repeated email', () => {
    expect(roleFieldError('member_emails', ['a@example.com', 'oops'], t)).toBe('projectRoles.rules.email {"item":"oops"}');
    expect(roleFieldError('member_emails', ['a@example.com', 'A@example.com'], t)).toBe(
      'projectRoles.rules.duplicate {"item":"A@example.com"}',
    );
  });
});
