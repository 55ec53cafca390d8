/**
 * Role screens: the roles tab of a project (spec §2 `project/detail/{id}/roles`: project and device roles) and the
 * machine roles page (`/machine/roles`).
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** The tab's route object, relative to `project/detail/:id`. */
export const projectRolesTabRoute: RouteObject = { path: 'roles', lazy: lazyPage(() => import('./ProjectRolesTab')) };

/** The machine roles page's route object, relative to the machine section's layout (`machine/roles`). */
export const machineRolesRoute: RouteObject = { path: 'roles', lazy: lazyPage(() => import('./MachineRolesPage')) };
