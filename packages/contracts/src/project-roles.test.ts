import { describe, expect, it } from 'vitest';
import {
  PROJECT_ROLE_DEVICES_MAX,
  PROJECT_ROLE_MEMBERS_MAX,
  PROJECT_ROLE_NAME_MAX,
  PROJECT_ROLE_PERMISSIONS,
  ZProjectRoleCreate,
  ZProjectRoleInput,
} from './project-roles.js';

const base = { name: 'Installers', permissions: ['view_telemetry'], device_ids: [1], member_emails: [] as string[] };
const parse = (extra: Record<string, unknown>) => ZProjectRoleInput.safeParse({ ...base, ...extra });
const ok = (extra: Record<string, unknown>) => parse(extra).success;
const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);

describe('ZProjectRoleInput (§5 names, "at least one permission and one device for a role")', () => {
  it(`name: 1 to ${PROJECT_ROLE_NAME_MAX} characters after trimming`, () => {
    expect(PROJECT_ROLE_NAME_MAX).toBe(32);
    expect(ok({ name: 'n'.repeat(PROJECT_ROLE_NAME_MAX) })).toBe(true);
    expect(ok({ name: 'n'.repeat(PROJECT_ROLE_NAME_MAX + 1) })).toBe(false);
    expect(ok({ name: ` ${'n'.repeat(PROJECT_ROLE_NAME_MAX)} ` })).toBe(true);
    expect(ok({ name: '' })).toBe(false);
    expect(ok({ name: '   ' })).toBe(false);
    expect(ZProjectRoleInput.parse({ ...base, name: '  組件廠  ' }).name).toBe('組件廠');
  });

  it('permissions: at least one, each from the fixed list, no repeats', () => {
    expect(ok({ permissions: [...PROJECT_ROLE_PERMISSIONS] })).toBe(true);
    expect(ok({ permissions: [] })).toBe(false);
    expect(ok({ permissions: ['admin'] })).toBe(false);
    const dup = parse({ permissions: ['view_history', 'view_history'] });
    expect(dup.error?.issues[0]).toMatchObject({ path: ['permissions', 1], message: 'duplicate permission' });
  });

  it(`devices: 1 to ${PROJECT_ROLE_DEVICES_MAX} positive ids, no repeats`, () => {
    expect(ok({ device_ids: range(PROJECT_ROLE_DEVICES_MAX) })).toBe(true);
    expect(ok({ device_ids: range(PROJECT_ROLE_DEVICES_MAX + 1) })).toBe(false);
    expect(ok({ device_ids: [] })).toBe(false);
    expect(ok({ device_ids: [0] })).toBe(false);
    expect(ok({ device_ids: [1.5] })).toBe(false);
    expect(parse({ device_ids: [3, 4, 3] }).error?.issues[0]).toMatchObject({ path: ['device_ids', 2], message: 'duplicate device' });
  });

  it(`members: 0 to ${PROJECT_ROLE_MEMBERS_MAX} emails, trimmed, lower-cased, unique ignoring case`, () => {
    const emails = (n: number) => range(n).map((i) => `u${i}@example.com`);
    expect(ok({ member_emails: emails(PROJECT_ROLE_MEMBERS_MAX) })).toBe(true);
    expect(ok({ member_emails: emails(PROJECT_ROLE_MEMBERS_MAX + 1) })).toBe(false);
    expect(ok({ member_emails: ['not-an-email'] })).toBe(false);
    expect(ZProjectRoleInput.parse({ ...base, member_emails: [' Ann@Example.COM '] }).member_emails).toEqual(['ann@example.com']);
    const dup = parse({ member_emails: ['a@example.com', 'A@example.com'] });
    expect(dup.error?.issues[0]).toMatchObject({ path: ['member_emails', 1], message: 'duplicate email' });
  });

  it('create needs the project id', () => {
    expect(ZProjectRoleCreate.safeParse(base).success).toBe(false);
    expect(ZProjectRoleCreate.safeParse({ ...base, project_id: 7 }).success).toBe(true);
    expect(ZProjectRoleCreate.safeParse({ ...base, project_id: 0 }).success).toBe(false);
  });
});
