/**
 * Custom-page routes (spec §2): the project tab where a vendor uploads the page (`project/detail/{id}/custom-page`)
 * and the device tab where it is shown (`device/detail/{tangramId}/custom-page`).
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** The project tab's route object, relative to `project/detail/:id`. */
export const customPageProjectTabRoute: RouteObject = {
  path: 'custom-page',
  lazy: lazyPage(() => import('./CustomPageTab')),
};

/** The device tab's route object, relative to `device/detail/:tangramId`. */
export const customPageDeviceTabRoute: RouteObject = {
  path: 'custom-page',
  lazy: lazyPage(() => import('./DevicePageTab')),
};
