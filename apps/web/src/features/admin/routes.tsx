/** Platform-admin routes of the console (spec §6 "An admin can list accounts and switch account token"). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the admin pages; relative paths, placed under the shell's authenticated layout. */
export const adminRoutes: RouteObject[] = [{ path: 'admin/accounts', lazy: lazyPage(() => import('./pages/AccountsPage')) }];
