/** React binding of the login session (re-renders on login, refresh and logout). */
import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type TSession } from './session';

/** The current session; components re-render when it changes. */
export function useSession(): TSession {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
