/**
 * The viewer's "reduce motion" wish (CSS Media Queries 5, `prefers-reduced-motion: reduce`, set by the operating
 * system's accessibility settings). The console then turns antd's motion off (modals, drawers and dropdowns appear
 * at once) and draws charts without their entry animation.
 */
import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

/** Whether the viewer asked for reduced motion now; false where `matchMedia` is missing (tests outside a browser). */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(QUERY).matches;
}

function subscribe(onChange: () => void): () => void {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/** {@link prefersReducedMotion} as React state: components re-render when the setting changes. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}
