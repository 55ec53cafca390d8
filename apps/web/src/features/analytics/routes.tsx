/** Analytics routes of the console (spec §2: `analytics`, device comparison). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of analytics; relative paths, placed under the shell's authenticated layout. */
export const analyticsRoutes: RouteObject[] = [{ path: 'analytics', lazy: lazyPage(() => import('./pages/AnalyticsPage')) }];
