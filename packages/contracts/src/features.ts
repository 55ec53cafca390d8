/**
 * Feature codes and the console's route guard (spec §2 route table, menu, route guard; §6 roles).
 *
 * A token's `fea` lists granted codes: a section code ("3") grants the whole section, a sub-page code ("3:2")
 * grants one sub-page, "*" grants everything. Pure functions, shared by the console and its tests.
 */

/** Account levels carried in the token's `level` (§3 token payload, §6 roles). */
export const ACCOUNT_LEVELS = ['admin', 'vendor', 'user'] as const;
export type TAccountLevel = (typeof ACCOUNT_LEVELS)[number];

/** A sub-page of a menu section: its feature code and path; `vendorOnly` when users may not open it. */
export interface TMenuPage {
  code: string;
  path: string;
  vendorOnly?: boolean;
}

/** A section of the menu (§2 "Menu (feature code : label)"). `built` sections appear in the menu. */
export interface TMenuSection {
  code: string;
  /** i18n key under `menu.` and the first path segment. */
  key: string;
  /** The section's sub-pages, first one is the section's default; paths relative to `/`. */
  pages: readonly TMenuPage[];
  vendorOnly?: boolean;
  built: boolean;
}

/** §2 menu. Sections later issues build carry `built: false` and are neither in the menu nor routed. */
export const MENU_SECTIONS: readonly TMenuSection[] = [
  { code: '1', key: 'dashboard', pages: [{ code: '1:1', path: '/dashboard' }], built: true },
  { code: '2', key: 'product', pages: [{ code: '2:1', path: '/product/list' }], vendorOnly: true, built: true },
  {
    code: '3',
    key: 'project',
    pages: [
      { code: '3:1', path: '/project/list' },
      { code: '3:2', path: '/project/new' },
      { code: '3:3', path: '/project/detail' },
    ],
    vendorOnly: true,
    built: true,
  },
  {
    code: '4',
    key: 'device',
    pages: [
      { code: '4:1', path: '/device/list' },
      { code: '4:2', path: '/device/detail' },
    ],
    built: true,
  },
  {
    code: '5',
    key: 'alerts',
    pages: [
      { code: '5:1', path: '/alerts/dashboard' },
      { code: '5:2', path: '/alerts/statistics' },
      { code: '5:3', path: '/alerts/history' },
    ],
    built: true,
  },
  {
    code: '6',
    key: 'authorisation',
    pages: [
      { code: '6:2', path: '/self-auth/devce-auth' },
      { code: '6:1', path: '/self-auth/history' },
    ],
    built: true,
  },
  { code: '7', key: 'analytics', pages: [{ code: '7:1', path: '/analytics' }], built: true },
  { code: '8', key: 'download', pages: [{ code: '8:1', path: '/download' }], built: true },
  {
    // The spec's menu list skips 9; machines take it (docs/decisions/machines.md): configures are the vendor's,
    // equipment (machine instances) vendors and users see.
    code: '9',
    key: 'machine',
    pages: [
      { code: '9:1', path: '/machine/configure', vendorOnly: true },
      { code: '9:2', path: '/machine/equipment' },
      { code: '9:3', path: '/machine/roles', vendorOnly: true },
    ],
    built: true,
  },
  { code: '10', key: 'lineNotify', pages: [{ code: '10:1', path: '/line-notify/group' }], built: true },
  { code: '11', key: 'platformRule', pages: [{ code: '11:1', path: '/platform_rule/list' }], built: true },
  { code: '12', key: 'platformTelemetry', pages: [{ code: '12:1', path: '/platform-telemetry/instance' }], vendorOnly: true, built: true },
  {
    // The spec's menu list stops at 12 and reserves 13:25 for the AI assistant (§1), so AI takes 13: the model registry
    // is 13:1, its list and a model's page alike (docs/decisions/ai.md); 13:1 does not grant the assistant.
    code: '13',
    key: 'aiModel',
    pages: [
      { code: '13:1', path: '/ai-model/list' },
      { code: '13:1', path: '/ai-model/detail' },
    ],
    vendorOnly: true,
    built: true,
  },
  // The audit log takes 14, after AI's 13: vendors read their tenant's log, the platform admin every tenant's; users never
  // (docs/decisions/audit-log.md).
  { code: '14', key: 'auditLog', pages: [{ code: '14:1', path: '/audit-log' }], vendorOnly: true, built: true },
];

/**
 * Feature codes granted by default to each level at registration. "13:25" is the AI assistant (§1), granted to no one
 * by default; vendors get the model registry "13:1", not the whole section "13" (which would grant the assistant).
 */
export const DEFAULT_FEATURES: Record<TAccountLevel, readonly string[]> = {
  admin: ['*'],
  vendor: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13:1', '14'],
  user: ['1', '4', '5', '6', '7', '8', '9', '10'],
};

/** Paths that need no login (§2 login screens, and the sign-up of §7 register/aiot). */
export const PUBLIC_PATHS = ['/login', '/logout', '/register', '/forgot', '/reset', '/setpwd'] as const;

/** The session the guard decides on: what the console decoded from its stored token. */
export interface TGuardSession {
  token: string | null;
  level?: TAccountLevel;
  fea?: readonly string[];
}

/** The guard's verdict: render the route, or redirect to `to`. */
export type TGuardResult = { kind: 'allow' } | { kind: 'redirect'; to: string };

/** True when `fea` grants `code` ("3:2" is granted by "3:2", "3" or "*"). */
export function hasFeature(fea: readonly string[] | undefined, code: string): boolean {
  if (!fea) return false;
  const section = code.split(':')[0];
  return fea.includes('*') || fea.includes(code) || fea.includes(section);
}

/** True when the session may open `page` of `section` (the level the section and the page need, and the feature code). */
export function canOpenPage(section: TMenuSection, page: TMenuPage, session: TGuardSession): boolean {
  if ((section.vendorOnly || page.vendorOnly) && session.level === 'user') return false;
  return hasFeature(session.fea, page.code);
}

/** True when the session may open the section at all (some page it may open). */
export function canOpenSection(section: TMenuSection, session: TGuardSession): boolean {
  return section.pages.some((p) => canOpenPage(section, p, session));
}

/** The built menu sections this session may see, in menu order (§2 "menu filtered by feature codes"). */
export function visibleMenu(session: TGuardSession): TMenuSection[] {
  return MENU_SECTIONS.filter((s) => s.built && canOpenSection(s, session));
}

/** The default page: the first page of the first built section the session may open, or null. */
export function defaultPage(session: TGuardSession): string | null {
  const section = visibleMenu(session)[0];
  if (!section) return null;
  return section.pages.find((p) => canOpenPage(section, p, session))?.path ?? null;
}

function isPublic(pathname: string): boolean {
  return PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/** True when `pathname` is `prefix` or below it (`/a/b` is below `/a`, `/ab` is not). */
function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/** The first segment of a path (`/platform_rule/list` → `/platform_rule`). */
const firstSegment = (path: string) => `/${path.split('/')[1]}`;

/**
 * The built section and page a path belongs to, if any (first page whose path it is under); `page` is absent for a
 * path of the section that is no menu page (`/platform_rule/detail/4`, `/line-notify/group/3`): the section's key or
 * the first segment of one of its pages' paths.
 */
export function findPage(pathname: string): { section: TMenuSection; code: string; page?: TMenuPage } | null {
  for (const section of MENU_SECTIONS) {
    if (!section.built) continue;
    const page = section.pages.find((p) => isUnder(pathname, p.path));
    if (page) return { section, code: page.code, page };
    if (isUnder(pathname, `/${section.key}`) || section.pages.some((p) => isUnder(pathname, firstSegment(p.path)))) {
      return { section, code: section.code };
    }
  }
  return null;
}

/** A route only some account levels may open, whatever their feature codes ({@link LEVEL_ROUTES}). */
export interface TLevelRoute {
  /** Path segments; `:name` matches any one segment; the route covers the path and everything below it. */
  path: string;
  levels: readonly TAccountLevel[];
}

/**
 * Routes restricted by account level beyond the menu's `vendorOnly` (docs/decisions/console.md "Pages a role may not
 * open"): the accounts page is the platform admin's; a platform rule's flow editor and a LINE push group are the
 * vendor's (the server refuses a user there), while their lists are open to users granted the section.
 */
export const LEVEL_ROUTES: readonly TLevelRoute[] = [
  { path: '/admin', levels: ['admin'] },
  { path: '/platform_rule/detail', levels: ['admin', 'vendor'] },
  { path: '/line-notify/group/:id', levels: ['admin', 'vendor'] },
];

/** True when `pathname` is the route `path` (segments, `:name` any one) or below it. */
function matchesRoute(pathname: string, path: string): boolean {
  const want = path.split('/');
  const have = pathname.split('/');
  return have.length >= want.length && want.every((seg, i) => seg === have[i] || (seg.startsWith(':') && have[i] !== ''));
}

/** True when the session's level may open `pathname` as far as {@link LEVEL_ROUTES} say (other paths: true). */
export function isLevelAllowed(pathname: string, session: TGuardSession): boolean {
  const route = LEVEL_ROUTES.find((r) => matchesRoute(pathname, r.path));
  return !route || (session.level !== undefined && route.levels.includes(session.level));
}

/** Where a session goes from a page it may not open: the first page of the same section it may open, else the default page, else login. */
function fallbackFor(pathname: string, session: TGuardSession, section: TMenuSection | null): TGuardResult {
  const sibling = section?.pages.find((p) => canOpenPage(section, p, session) && p.path !== pathname);
  if (sibling) return { kind: 'redirect', to: sibling.path };
  const fallback = defaultPage(session);
  if (fallback && fallback !== pathname) return { kind: 'redirect', to: fallback };
  return { kind: 'redirect', to: '/login?msg=role_deny' };
}

/**
 * The route guard of spec §2:
 * - a public path is always allowed;
 * - without a token → `/login?msg=token_out&redirectFrom=<path and search>` (a link page keeps its query);
 * - a page whose feature code (or level, {@link LEVEL_ROUTES}) is not allowed → the first allowed sub-page of the
 *   same section, else the default page, else `/login?msg=role_deny` — decided from the token before the page loads,
 *   so no call the role may not make is sent;
 * - a path outside the route table is left to the router (which sends it to `/`).
 */
export function guardRoute(pathname: string, session: TGuardSession, search = ''): TGuardResult {
  if (isPublic(pathname)) return { kind: 'allow' };
  if (!session.token) {
    return { kind: 'redirect', to: `/login?msg=token_out&redirectFrom=${encodeURIComponent(pathname + search)}` };
  }
  const found = findPage(pathname);
  const pageAllowed = !found || canOpenPage(found.section, found.page ?? { code: found.code, path: pathname }, session);
  if (pageAllowed && isLevelAllowed(pathname, session)) return { kind: 'allow' };
  return fallbackFor(pathname, session, found?.section ?? null);
}
