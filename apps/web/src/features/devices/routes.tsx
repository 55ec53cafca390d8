/**
 * Device routes of the console (spec §2: `device`, `device/list`, `device/detail/:tangramId/*`). The shell mounts
 * {@link deviceRoutes} under its authenticated layout; every page is a lazy chunk.
 */
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';
import { customPageDeviceTabRoute } from '../custom-pages/routes';

/** Route objects of the device pages; relative paths, to be placed under the shell's root layout. */
export const deviceRoutes: RouteObject[] = [
  { path: 'device', element: <Navigate to="/device/list" replace /> },
  { path: 'device/list', lazy: lazyPage(() => import('./pages/DeviceListPage')) },
  {
    path: 'device/detail/:tangramId',
    lazy: lazyPage(() => import('./pages/DeviceDetailPage')),
    children: [
      { index: true, element: <Navigate to="telemetry-status" replace /> },
      { path: 'telemetry-status', lazy: lazyPage(() => import('./pages/TelemetryStatusPage')) },
      { path: 'history-chart', lazy: lazyPage(() => import('./pages/HistoryChartPage')) },
      { path: 'realtime-chart', lazy: lazyPage(() => import('./pages/RealtimeChartPage')) },
      { path: 'app-rules', lazy: lazyPage(() => import('./pages/AppRulesPage')) },
      { path: 'motor-health', lazy: lazyPage(() => import('./pages/MotorHealthPage')) },
      { path: 'remote-control', lazy: lazyPage(() => import('./pages/RemoteControlPage')) },
      customPageDeviceTabRoute,
    ],
  },
];
