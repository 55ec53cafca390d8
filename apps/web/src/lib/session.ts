/**
 * The console's login session (spec §3 "Local login storage: idtoken, refresh_token, email, accountid, level,
 * language"; §4 Auth states). Stored in localStorage (an in-memory map where there is none, e.g. unit tests);
 * the access token is decoded with jose's decodeJwt (no verification: the server verifies every call).
 */
import { ACCOUNT_LEVELS, LANGUAGES, type TAccountLevel, type TGuardSession, type TLanguage } from '@tessera/contracts';
import { decodeJwt } from 'jose';

/** The storage keys of §3, exactly. */
export const SESSION_KEYS = ['idtoken', 'refresh_token', 'email', 'accountid', 'level', 'language'] as const;
type TSessionKey = (typeof SESSION_KEYS)[number];

/** The decoded session: what the guard, the menu and the HTTP client read. `exp` is epoch seconds. */
export interface TSession extends TGuardSession {
  token: string | null;
  refreshToken: string | null;
  email: string | null;
  accountId: string | null;
  tid: number | null;
  level?: TAccountLevel;
  fea: string[];
  exp: number | null;
}

/** The console's default language (spec: Traditional Chinese by default). */
export const DEFAULT_LANGUAGE: TLanguage = 'zh-TW';

const memory = new Map<string, string>();
const store = {
  get: (k: TSessionKey): string | null => (globalThis.localStorage ? localStorage.getItem(k) : (memory.get(k) ?? null)),
  set: (k: TSessionKey, v: string): void => (globalThis.localStorage ? localStorage.setItem(k, v) : void memory.set(k, v)),
  remove: (k: TSessionKey): void => (globalThis.localStorage ? localStorage.removeItem(k) : void memory.delete(k)),
};

const listeners = new Set<() => void>();
let cached: TSession | null = null;

/** Decodes an access token into the claims the console uses; a malformed token gives empty claims. */
export function decodeToken(token: string): Pick<TSession, 'level' | 'fea' | 'email' | 'tid' | 'exp' | 'accountId'> {
  try {
    const p = decodeJwt(token);
    const level = ACCOUNT_LEVELS.find((l) => l === p.level);
    return {
      level,
      fea: Array.isArray(p.fea) ? p.fea.filter((f): f is string => typeof f === 'string') : [],
      email: typeof p.email === 'string' ? p.email : null,
      tid: typeof p.tid === 'number' ? p.tid : null,
      exp: typeof p.exp === 'number' ? p.exp : null,
      accountId: typeof p.sub === 'string' ? p.sub : null,
    };
  } catch {
    return { level: undefined, fea: [], email: null, tid: null, exp: null, accountId: null };
  }
}

function read(): TSession {
  const token = store.get('idtoken');
  const claims = token ? decodeToken(token) : null;
  const level = ACCOUNT_LEVELS.find((l) => l === store.get('level')) ?? claims?.level;
  return {
    token,
    refreshToken: store.get('refresh_token'),
    email: store.get('email') ?? claims?.email ?? null,
    accountId: store.get('accountid') ?? claims?.accountId ?? null,
    tid: claims?.tid ?? null,
    level: token ? level : undefined,
    fea: claims?.fea ?? [],
    exp: claims?.exp ?? null,
  };
}

function notify(): void {
  cached = null;
  for (const l of listeners) l();
}

/** The current session (stable object until the storage changes, so React can subscribe to it). */
export function getSession(): TSession {
  cached ??= read();
  return cached;
}

/** Subscribes to session changes; returns the unsubscribe function. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Stores a login or refresh answer (§4: "a refresh replaces both tokens"); the claims come from the token. */
export function saveTokens(token: string, refreshToken: string): void {
  const claims = decodeToken(token);
  store.set('idtoken', token);
  store.set('refresh_token', refreshToken);
  if (claims.email) store.set('email', claims.email);
  if (claims.accountId) store.set('accountid', claims.accountId);
  if (claims.level) store.set('level', claims.level);
  notify();
}

/** §4 logout: clears the login keys (and an admin's way back). The language stays: it is the browser's choice. */
export function clearSession(): void {
  for (const k of SESSION_KEYS) if (k !== 'language') store.remove(k);
  removeAdminReturn();
  notify();
}

/**
 * The admin's own tokens while it acts as another account (spec §6 "An admin can list accounts and switch account
 * token"): kept beside the §3 keys under {@link ADMIN_RETURN_KEY}, so "back" restores the admin's session.
 */
export const ADMIN_RETURN_KEY = 'admin_return';

/** The stored admin session when `value` has its three strings (read without zod, which the login page does not load). */
function asAdminReturn(value: unknown): { token: string; refresh_token: string; email: string } | null {
  if (typeof value !== 'object' || value === null) return null;
  const { token, refresh_token, email } = value as Record<string, unknown>;
  return typeof token === 'string' && typeof refresh_token === 'string' && typeof email === 'string'
    ? { token, refresh_token, email }
    : null;
}

/** Switches to `pair` (another account's tokens), remembering the current session to return to. */
export function actAs(pair: { token: string; refresh_token: string }): void {
  const current = getSession();
  if (current.token && current.refreshToken && !adminReturn()) {
    const saved = JSON.stringify({ token: current.token, refresh_token: current.refreshToken, email: current.email ?? '' });
    if (globalThis.localStorage) localStorage.setItem(ADMIN_RETURN_KEY, saved);
    else memory.set(ADMIN_RETURN_KEY, saved);
  }
  saveTokens(pair.token, pair.refresh_token);
}

/** The admin session to return to, while acting as another account; null otherwise. */
export function adminReturn(): { token: string; refresh_token: string; email: string } | null {
  const raw = globalThis.localStorage ? localStorage.getItem(ADMIN_RETURN_KEY) : (memory.get(ADMIN_RETURN_KEY) ?? null);
  if (!raw) return null;
  try {
    return asAdminReturn(JSON.parse(raw));
  } catch {
    return null;
  }
}

function removeAdminReturn(): void {
  if (globalThis.localStorage) localStorage.removeItem(ADMIN_RETURN_KEY);
  else memory.delete(ADMIN_RETURN_KEY);
}

/** Ends acting as another account: the admin's own tokens are the session again. */
export function returnToAdmin(): void {
  const back = adminReturn();
  removeAdminReturn();
  if (back) saveTokens(back.token, back.refresh_token);
  else notify();
}

/** The stored language, or the default. */
export function getLanguage(): TLanguage {
  return LANGUAGES.find((l) => l === store.get('language')) ?? DEFAULT_LANGUAGE;
}

/** Persists the language under the §3 key `language`. */
export function saveLanguage(language: TLanguage): void {
  store.set('language', language);
  notify();
}
