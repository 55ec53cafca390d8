/**
 * Project routes of the console (spec §2: `project` → `project/list`, `project/new`, `project/detail/{id}/*`). The
 * detail page's tabs belong to the features that own them (sensors, rules, settings, custom page, roles); this
 * file places them in the order the detail page shows them.
 */
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';
import { customPageProjectTabRoute } from '../custom-pages/routes';
import { projectRolesTabRoute } from '../project-roles/routes';
import { projectRulesTabRoute } from '../project-rules/routes';
import { notificationTabRoute, systemTabRoute } from '../project-settings/routes';
import { sensorsTabRoute } from '../sensors/routes';

/** Route objects of the project pages; relative paths, placed under the shell's authenticated layout. */
export const projectRoutes: RouteObject[] = [
  { path: 'project', element: <Navigate to="/project/list" replace /> },
  { path: 'project/list', lazy: lazyPage(() => import('./ProjectListPage')) },
  { path: 'project/new', lazy: lazyPage(() => import('./ProjectNewPage')) },
  {
    path: 'project/detail/:id',
    lazy: lazyPage(() => import('./ProjectDetailPage')),
    children: [
      { index: true, element: <Navigate to="devices" replace /> },
      { path: 'devices', lazy: lazyPage(() => import('./ProjectDevicesTab')) },
      sensorsTabRoute,
      projectRulesTabRoute,
      systemTabRoute,
      customPageProjectTabRoute,
      notificationTabRoute,
      projectRolesTabRoute,
    ],
  },
];
