import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COLOR_SCHEME_KEY, colorSchemeChoice, resolveColorScheme, setColorSchemeChoice } from './colorScheme';

function fakeWindow(dark: boolean) {
  const store = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
  vi.stubGlobal('window', { matchMedia: () => ({ matches: dark, addEventListener() {}, removeEventListener() {} }) });
  return store;
}

describe('colour scheme', () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it('follows the system until a scheme is chosen', () => {
    fakeWindow(true);
    expect(colorSchemeChoice()).toBe('system');
    expect(resolveColorScheme()).toBe('dark');
    setColorSchemeChoice('light');
    expect(resolveColorScheme()).toBe('light');
  });

  it('remembers the choice, and forgets it when the system is chosen again', () => {
    const store = fakeWindow(false);
    setColorSchemeChoice('dark');
    expect(store.get(COLOR_SCHEME_KEY)).toBe('dark');
    expect(resolveColorScheme()).toBe('dark');
    setColorSchemeChoice('system');
    expect(store.has(COLOR_SCHEME_KEY)).toBe(false);
    expect(resolveColorScheme()).toBe('light');
  });

  it('is light where the system cannot be asked', () => {
    vi.stubGlobal('window', {});
    expect(resolveColorScheme('system')).toBe('light');
  });
});
