/**
 * Alert routes of the console (spec §2: `alerts` → `alerts/dashboard`; children dashboard, statistics, history).
 * The shell mounts {@link alertRoutes} under its authenticated layout; every page is a lazy chunk.
 */
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the alert pages; relative paths, placed under the shell's root layout. */
export const alertRoutes: RouteObject[] = [
  {
    path: 'alerts',
    lazy: lazyPage(() => import('./AlertsLayout')),
    children: [
      { index: true, element: <Navigate to="/alerts/dashboard" replace /> },
      { path: 'dashboard', lazy: lazyPage(() => import('./pages/AlertsDashboardPage')) },
      { path: 'statistics', lazy: lazyPage(() => import('./pages/AlertsStatisticsPage')) },
      { path: 'history', lazy: lazyPage(() => import('./pages/AlertsHistoryPage')) },
    ],
  },
];
