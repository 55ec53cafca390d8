/**
 * Light or dark console (docs/web-bundle.md "Dark mode"): the viewer's choice — `system` (follow the operating
 * system's `prefers-color-scheme`, the default), `light` or `dark` — kept in localStorage under `colorScheme` (the
 * browser's choice, like the language: kept on logout), and the scheme it resolves to. antd (App.tsx), the charts
 * (lib/useEChart) and the flow editor read {@link useColorScheme}.
 */
import { useSyncExternalStore } from 'react';

/** What the viewer chose. */
export type TColorSchemeChoice = 'system' | 'light' | 'dark';
/** What the console draws. */
export type TColorScheme = 'light' | 'dark';

/** The choices, in the switch's order. */
export const COLOR_SCHEME_CHOICES: readonly TColorSchemeChoice[] = ['system', 'light', 'dark'];
/** localStorage key of the choice. */
export const COLOR_SCHEME_KEY = 'colorScheme';
const DARK_QUERY = '(prefers-color-scheme: dark)';
const listeners = new Set<() => void>();

const hasMatchMedia = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function';

/** The stored choice; `system` when none (or storage is unavailable). */
export function colorSchemeChoice(): TColorSchemeChoice {
  try {
    const stored = globalThis.localStorage?.getItem(COLOR_SCHEME_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** The scheme `choice` resolves to now (`system`: the operating system's; light where it cannot be asked). */
export function resolveColorScheme(choice: TColorSchemeChoice = colorSchemeChoice()): TColorScheme {
  if (choice !== 'system') return choice;
  return hasMatchMedia() && window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

/** Stores `choice` and redraws everything that reads the scheme. */
export function setColorSchemeChoice(choice: TColorSchemeChoice): void {
  try {
    if (choice === 'system') globalThis.localStorage?.removeItem(COLOR_SCHEME_KEY);
    else globalThis.localStorage?.setItem(COLOR_SCHEME_KEY, choice);
  } catch {
    // Storage refused (private mode): the choice holds until the page is reloaded.
  }
  for (const l of listeners) l();
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  const media = hasMatchMedia() ? window.matchMedia(DARK_QUERY) : null;
  media?.addEventListener('change', onChange);
  return () => {
    listeners.delete(onChange);
    media?.removeEventListener('change', onChange);
  };
}

/** The viewer's choice as React state. */
export function useColorSchemeChoice(): TColorSchemeChoice {
  return useSyncExternalStore(subscribe, colorSchemeChoice, () => 'system');
}

/** The scheme to draw as React state: re-renders when the choice or the operating system's setting changes. */
export function useColorScheme(): TColorScheme {
  return useSyncExternalStore(
    subscribe,
    () => resolveColorScheme(),
    () => 'light',
  );
}
