/** The console's guard and menu (spec §2 route guard and menu, §6 roles): every branch of the pure functions. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FEATURES, defaultPage, guardRoute, hasFeature, MENU_SECTIONS, type TGuardSession, visibleMenu } from './features.js';

const vendor: TGuardSession = { token: 't', level: 'vendor', fea: [...DEFAULT_FEATURES.vendor] };
const user: TGuardSession = { token: 't', level: 'user', fea: [...DEFAULT_FEATURES.user] };
const admin: TGuardSession = { token: 't', level: 'admin', fea: ['*'] };

describe('hasFeature', () => {
  it('is false without a feature list', () => expect(hasFeature(undefined, '2')).toBe(false));
  it('"*" grants everything', () => expect(hasFeature(['*'], '12:1')).toBe(true));
  it('a sub-page code grants that sub-page', () => expect(hasFeature(['3:2'], '3:2')).toBe(true));
  it('a section code grants its sub-pages', () => expect(hasFeature(['3'], '3:3')).toBe(true));
  it('a sub-page code grants neither its siblings nor the section', () => {
    expect(hasFeature(['3:1'], '3:2')).toBe(false);
    expect(hasFeature(['3:1'], '3')).toBe(false);
  });
  it('section "1" does not grant section "10"', () => expect(hasFeature(['1'], '10:1')).toBe(false));
  it('an empty list grants nothing', () => expect(hasFeature([], '4:1')).toBe(false));
});

describe('visibleMenu', () => {
  it('shows a vendor the built sections only, in menu order', () => {
    expect(visibleMenu(vendor).map((s) => s.key)).toEqual([
      'dashboard',
      'product',
      'project',
      'device',
      'alerts',
      'authorisation',
      'analytics',
      'download',
      'machine',
      'lineNotify',
      'platformRule',
      'platformTelemetry',
      'aiModel',
      'auditLog',
    ]);
  });
  it('never shows unbuilt sections, even to "*"', () => {
    expect(visibleMenu(admin).every((s) => s.built)).toBe(true);
    expect(visibleMenu(admin).map((s) => s.key)).toEqual(MENU_SECTIONS.filter((s) => s.built).map((s) => s.key));
  });
  it('hides vendor-only sections from users, whatever their codes', () => {
    expect(visibleMenu({ ...user, fea: ['*'] }).map((s) => s.key)).toEqual([
      'dashboard',
      'device',
      'alerts',
      'authorisation',
      'analytics',
      'download',
      'machine',
      'lineNotify',
      'platformRule',
    ]);
  });
  it('shows users the platform rules only when granted (code 11, read-only)', () => {
    expect(visibleMenu(user).map((s) => s.key)).not.toContain('platformRule');
    expect(visibleMenu({ ...user, fea: [...DEFAULT_FEATURES.user, '11'] }).map((s) => s.key)).toContain('platformRule');
  });
  it('shows a section granted by one sub-page code', () => {
    expect(visibleMenu({ token: 't', level: 'vendor', fea: ['3:2'] }).map((s) => s.key)).toEqual(['project']);
  });
  it('is empty without features', () => expect(visibleMenu({ token: 't', level: 'vendor', fea: [] })).toEqual([]));
});

describe('defaultPage', () => {
  it('is the dashboard for vendors and users (spec §2 "/ redirects to dashboard")', () => {
    expect(defaultPage(vendor)).toBe('/dashboard');
    expect(defaultPage(user)).toBe('/dashboard');
    expect(defaultPage({ ...user, fea: ['4', '5'] })).toBe('/device/list');
  });
  it('is the first granted sub-page of the first visible section', () => {
    expect(defaultPage({ token: 't', level: 'vendor', fea: ['3:2'] })).toBe('/project/new');
  });
  it('is null when nothing is granted', () => expect(defaultPage({ token: 't', level: 'vendor', fea: [] })).toBeNull());
});

describe('guardRoute', () => {
  it('allows public paths without a token, including /setpwd/{type} and the sign-up', () => {
    for (const p of ['/login', '/logout', '/register', '/forgot', '/reset', '/setpwd/init']) {
      expect(guardRoute(p, { token: null })).toEqual({ kind: 'allow' });
    }
  });
  it('sends a visitor without a token to login with token_out and where they came from', () => {
    expect(guardRoute('/project/detail/5', { token: null })).toEqual({
      kind: 'redirect',
      to: '/login?msg=token_out&redirectFrom=%2Fproject%2Fdetail%2F5',
    });
  });
  it('keeps the query of the page in redirectFrom (the LINE link page carries its link token there)', () => {
    expect(guardRoute('/line-notify/link', { token: null }, '?linkToken=abc')).toEqual({
      kind: 'redirect',
      to: '/login?msg=token_out&redirectFrom=%2Fline-notify%2Flink%3FlinkToken%3Dabc',
    });
  });
  it('does not treat a look-alike of a public path as public', () => {
    expect(guardRoute('/loginx', { token: null })).toMatchObject({ kind: 'redirect' });
  });
  it('allows a granted page and its children', () => {
    expect(guardRoute('/product/list', vendor)).toEqual({ kind: 'allow' });
    expect(guardRoute('/device/detail/ABC/telemetry-status', user)).toEqual({ kind: 'allow' });
    expect(guardRoute('/project', vendor)).toEqual({ kind: 'allow' });
  });
  it('leaves paths outside the route table to the router', () => {
    expect(guardRoute('/nowhere', vendor)).toEqual({ kind: 'allow' });
    expect(guardRoute('/dashboard', vendor)).toEqual({ kind: 'allow' });
  });
  it('sends a page not granted to the first granted sub-page of the same section', () => {
    const s: TGuardSession = { token: 't', level: 'vendor', fea: ['3:1'] };
    expect(guardRoute('/project/new', s)).toEqual({ kind: 'redirect', to: '/project/list' });
    expect(guardRoute('/project', s)).toEqual({ kind: 'redirect', to: '/project/list' });
  });
  it('sends a user on a vendor-only page to the default page', () => {
    expect(guardRoute('/product/list', user)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(guardRoute('/project/detail/1', { ...user, fea: ['*'] })).toEqual({ kind: 'redirect', to: '/dashboard' });
  });
  it('sends a section not granted at all to the default page', () => {
    expect(guardRoute('/device/list', { token: 't', level: 'vendor', fea: ['2'] })).toEqual({ kind: 'redirect', to: '/product/list' });
  });
  it('sends a role away from a page its level may not open before the page loads: accounts, flow editor, LINE group', () => {
    const userWithRules: TGuardSession = { ...user, fea: [...DEFAULT_FEATURES.user, '11'] };
    expect(guardRoute('/admin/accounts', vendor)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(guardRoute('/admin/accounts', user)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(guardRoute('/admin/accounts', { token: 't', level: 'admin', fea: ['*'] })).toEqual({ kind: 'allow' });
    expect(guardRoute('/platform_rule/detail/1', user)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(guardRoute('/platform_rule', user)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(guardRoute('/platform_rule/detail/1', userWithRules)).toEqual({ kind: 'redirect', to: '/platform_rule/list' });
    expect(guardRoute('/platform_rule/list', userWithRules)).toEqual({ kind: 'allow' });
    expect(guardRoute('/platform_rule/detail/1', vendor)).toEqual({ kind: 'allow' });
    expect(guardRoute('/line-notify/group/1', user)).toEqual({ kind: 'redirect', to: '/line-notify/group' });
    expect(guardRoute('/line-notify/group', user)).toEqual({ kind: 'allow' });
    expect(guardRoute('/line-notify/link', user)).toEqual({ kind: 'allow' });
    expect(guardRoute('/line-notify/group/1', vendor)).toEqual({ kind: 'allow' });
  });
  it('machines (code 9): vendors open configures and equipment; a user on the configure page goes to equipment', () => {
    expect(guardRoute('/machine/configure', vendor)).toEqual({ kind: 'allow' });
    expect(guardRoute('/machine/equipment/7', vendor)).toEqual({ kind: 'allow' });
    expect(guardRoute('/machine/equipment', user)).toEqual({ kind: 'allow' });
    expect(guardRoute('/machine/equipment/7', user)).toEqual({ kind: 'allow' });
    expect(guardRoute('/machine/configure', user)).toEqual({ kind: 'redirect', to: '/machine/equipment' });
    expect(guardRoute('/machine/configure', { ...user, fea: ['*'] })).toEqual({ kind: 'redirect', to: '/machine/equipment' });
    expect(guardRoute('/machine/configure', { ...user, fea: ['9:1', '1'] })).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(guardRoute('/machine/equipment', { ...vendor, fea: ['9:1'] })).toEqual({ kind: 'redirect', to: '/machine/configure' });
    expect(visibleMenu({ ...user, fea: ['9:1'] })).toEqual([]);
    expect(defaultPage({ ...user, fea: ['9'] })).toBe('/machine/equipment');
    expect(defaultPage({ ...vendor, fea: ['9'] })).toBe('/machine/configure');
  });
  it('AI models (code 13): vendors get the registry 13:1 by default, not the section (13:25 is the assistant)', () => {
    expect(DEFAULT_FEATURES.vendor).toContain('13:1');
    expect(DEFAULT_FEATURES.vendor).not.toContain('13');
    expect(DEFAULT_FEATURES.user.some((c) => c.startsWith('13'))).toBe(false);
    expect(hasFeature(DEFAULT_FEATURES.vendor, '13:25')).toBe(false);
    expect(guardRoute('/ai-model/list', vendor)).toEqual({ kind: 'allow' });
    expect(guardRoute('/ai-model/detail/7', vendor)).toEqual({ kind: 'allow' });
    expect(guardRoute('/ai-model/list', admin)).toEqual({ kind: 'allow' });
    expect(guardRoute('/ai-model/detail/7', user)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(guardRoute('/ai-model/list', { ...user, fea: ['*'] })).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(guardRoute('/ai-model/list', { ...vendor, fea: ['1', '13:25'] })).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(guardRoute('/ai-model/detail/7', { ...vendor, fea: ['1', '13'] })).toEqual({ kind: 'allow' });
    expect(visibleMenu({ ...vendor, fea: ['13:25'] })).toEqual([]);
    expect(defaultPage({ ...vendor, fea: ['13:1'] })).toBe('/ai-model/list');
  });
  it('answers role_deny when nothing is granted', () => {
    expect(guardRoute('/device/list', { token: 't', level: 'user', fea: [] })).toEqual({ kind: 'redirect', to: '/login?msg=role_deny' });
    expect(guardRoute('/product/list', { token: 't', level: 'user', fea: ['2'] })).toEqual({
      kind: 'redirect',
      to: '/login?msg=role_deny',
    });
  });
});
