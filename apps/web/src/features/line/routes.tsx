/**
 * LINE push routes of the console (spec §2 `line-notify` → group; group, group/{id}), plus the account-link
 * confirmation page the bot's reply opens (`line-notify/link?linkToken=…`). Every page is a lazy chunk.
 */
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the LINE pages; relative paths, placed under the shell's authenticated layout. */
export const lineRoutes: RouteObject[] = [
  { path: 'line-notify', element: <Navigate to="/line-notify/group" replace /> },
  { path: 'line-notify/group', lazy: lazyPage(() => import('./pages/GroupListPage')) },
  { path: 'line-notify/group/:id', lazy: lazyPage(() => import('./pages/GroupDetailPage')) },
  { path: 'line-notify/link', lazy: lazyPage(() => import('./pages/LinkConfirmPage')) },
];
