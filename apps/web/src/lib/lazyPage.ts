/**
 * Code-split route modules (every route is its own chunk): the one `lazy` every route of the console uses. A chunk
 * that does not arrive within CHUNK_LOAD_TIMEOUT_MS (spec §9, 120 s) fails the route — the router's error element
 * shows — instead of leaving a blank page.
 */
import { CHUNK_LOAD_TIMEOUT_MS } from '@tessera/contracts';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/** Rejects when `promise` has not settled within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chunk load timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** A react-router `lazy` loading the module's default export as the route's Component. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await withTimeout(load(), CHUNK_LOAD_TIMEOUT_MS)).default });
}

/**
 * A route's `lazy` (made by {@link lazyPage}) that also waits for `also` (e.g. the page's strings), under the same
 * time limit: the page draws only when both arrived. A `lazy` that is not a function is answered as it is.
 */
export function lazyAlso(routeLazy: RouteObject['lazy'], also: () => Promise<unknown>): RouteObject['lazy'] {
  if (typeof routeLazy !== 'function') return routeLazy;
  return async () => (await Promise.all([routeLazy(), withTimeout(also(), CHUNK_LOAD_TIMEOUT_MS)]))[0];
}
