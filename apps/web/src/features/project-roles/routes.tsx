/** The roles tab of a project (spec §2 `project/detail/{id}/roles`): project roles and their members. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** The tab's route object, relative to `project/detail/:id`. */
export const projectRolesTabRoute: RouteObject = { path: 'roles', lazy: lazyPage(() => import('./ProjectRolesTab')) };
