/** Platform-rule routes of the console (spec §2: `platform_rule` → list, `platform_rule/detail/{id}`, the flow editor). */
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the platform-rule pages; relative paths, placed under the shell's authenticated layout. */
export const platformRuleRoutes: RouteObject[] = [
  { path: 'platform_rule', element: <Navigate to="/platform_rule/list" replace /> },
  { path: 'platform_rule/list', lazy: lazyPage(() => import('./pages/PlatformRuleListPage')) },
  { path: 'platform_rule/detail/:id', lazy: lazyPage(() => import('./pages/PlatformRuleDetailPage')) },
];
