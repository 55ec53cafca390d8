/** The sensors tab of a project (spec §2 `project/detail/{id}/configure`): sensor bus, sensors, status names. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** The tab's route object, relative to `project/detail/:id`. */
export const sensorsTabRoute: RouteObject = { path: 'configure', lazy: lazyPage(() => import('./ConfigureTab')) };
