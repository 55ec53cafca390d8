/**
 * Platform-admin routes of the console: accounts (spec §6 "An admin can list accounts and switch account token") and
 * the platform's telemetry storage (docs/decisions/telemetry-storage.md "Sizes").
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the admin pages; relative paths, placed under the shell's authenticated layout. */
export const adminRoutes: RouteObject[] = [
  { path: 'admin/accounts', lazy: lazyPage(() => import('./pages/AccountsPage')) },
  { path: 'admin/storage', lazy: lazyPage(() => import('./pages/StoragePage')) },
];
