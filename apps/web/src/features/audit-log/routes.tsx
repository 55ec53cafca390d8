/**
 * The audit log page of the console (`/audit-log`, menu section 14; docs/decisions/audit-log.md): vendors and the
 * platform admin. The guard sends a user elsewhere before the page loads (section `vendorOnly`).
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the audit log; relative paths, placed under the shell's authenticated layout. */
export const auditLogRoutes: RouteObject[] = [{ path: 'audit-log', lazy: lazyPage(() => import('./pages/AuditLogPage')) }];
