/**
 * The root route: runs the guard of spec §2 (guardRoute from contracts) on every navigation with the current
 * session, and turns the HTTP client's events into the UI of spec §8 (logout, error dialog, connection note). The
 * dialog and the note are drawn by HttpEventNotes.tsx, loaded with the first event that needs one.
 */
import { guardRoute } from '@tessera/contracts';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { onHttpEvent } from '../lib/httpEvents';
import { queryClient } from '../lib/query';
import { useSession } from '../lib/useSession';
import type { TShownHttpEvent } from './HttpEventNotes';

const HttpEventNotes = lazy(() => import('./HttpEventNotes'));

/** Logs out on the client's `logout`; the events to show (error dialog, connection note), and how to drop shown ones. */
function useHttpEvents(): [TShownHttpEvent[], (count: number) => void] {
  const navigate = useNavigate();
  const [waiting, setWaiting] = useState<TShownHttpEvent[]>([]);
  useEffect(
    () =>
      onHttpEvent((e) => {
        if (e.type === 'logout') {
          queryClient.clear();
          navigate('/login?msg=token_out', { replace: true });
        } else setWaiting((list) => [...list, e]);
      }),
    [navigate],
  );
  const shown = useCallback((count: number) => setWaiting((list) => list.slice(count)), []);
  return [waiting, shown];
}

/** Guards every route and hosts the HTTP event bridge. */
export default function Root() {
  const { pathname, search } = useLocation();
  const session = useSession();
  const [events, onShown] = useHttpEvents();
  // Mounted from the first event on, so a dialog stays up while the next events come.
  const notesWanted = useRef(false);
  if (events.length > 0) notesWanted.current = true;
  const verdict = guardRoute(pathname, session, search);
  const notes = notesWanted.current && (
    <Suspense fallback={null}>
      <HttpEventNotes events={events} onShown={onShown} />
    </Suspense>
  );
  if (verdict.kind === 'redirect' && verdict.to !== pathname + search) {
    return (
      <>
        <Navigate to={verdict.to} replace />
        {notes}
      </>
    );
  }
  return (
    <>
      <Outlet />
      {notes}
    </>
  );
}
