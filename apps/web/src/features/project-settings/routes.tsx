/** Project settings tabs (spec §2 `project/detail/{id}/system` and `/notification`). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** The system tab (name, description, provisioning, fees), relative to `project/detail/:id`. */
export const systemTabRoute: RouteObject = { path: 'system', lazy: lazyPage(() => import('./SystemTab')) };

/** The notification tab (mail recipients, alert subscriptions), relative to `project/detail/:id`. */
export const notificationTabRoute: RouteObject = {
  path: 'notification',
  lazy: lazyPage(() => import('./NotificationTab')),
};
