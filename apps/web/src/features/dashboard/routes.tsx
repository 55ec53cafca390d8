/** Dashboard routes of the console (spec §2: `/` redirects to `dashboard`, pages and widgets). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the dashboard; relative paths, placed under the shell's authenticated layout. */
export const dashboardRoutes: RouteObject[] = [{ path: 'dashboard', lazy: lazyPage(() => import('./pages/DashboardPage')) }];
