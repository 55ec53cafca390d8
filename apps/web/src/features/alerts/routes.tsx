/**
 * Alert routes of the console (spec §2: `alerts` → `alerts/dashboard`; children dashboard, statistics, history).
 * The shell mounts {@link alertRoutes} under its authenticated layout; every page is a lazy chunk.
 */
import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';

const page =
  (load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] =>
  async () => ({
    Component: (await load()).default,
  });

/** Route objects of the alert pages; relative paths, placed under the shell's root layout. */
export const alertRoutes: RouteObject[] = [
  {
    path: 'alerts',
    lazy: page(() => import('./AlertsLayout')),
    children: [
      { index: true, element: <Navigate to="/alerts/dashboard" replace /> },
      { path: 'dashboard', lazy: page(() => import('./pages/AlertsDashboardPage')) },
      { path: 'statistics', lazy: page(() => import('./pages/AlertsStatisticsPage')) },
      { path: 'history', lazy: page(() => import('./pages/AlertsHistoryPage')) },
    ],
  },
];
