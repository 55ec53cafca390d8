/**
 * Authorisation routes of the console (spec §2 `/self-auth/history`, `/self-auth/devce-auth`): the spec's spelling is
 * the route; `/self-auth/device-auth` leads to it with its query (a QR code's link keeps working either way).
 */
import { Navigate, type RouteObject, useLocation } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

function ToSpecSpelling() {
  const { search } = useLocation();
  return <Navigate to={`/self-auth/devce-auth${search}`} replace />;
}

/** Route objects of authorisation; relative paths, placed under the shell's authenticated layout. */
export const authorisationRoutes: RouteObject[] = [
  { path: 'self-auth', element: <Navigate to="/self-auth/devce-auth" replace /> },
  { path: 'self-auth/devce-auth', lazy: lazyPage(() => import('./pages/DeviceAuthPage')) },
  { path: 'self-auth/device-auth', element: <ToSpecSpelling /> },
  { path: 'self-auth/history', lazy: lazyPage(() => import('./pages/AuthHistoryPage')) },
];
