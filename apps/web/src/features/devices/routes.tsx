/**
 * Device routes of the console (spec §2: `device`, `device/list`, `device/detail/:tangramId/*`). The shell mounts
 * {@link deviceRoutes} under its authenticated layout; every page is a lazy chunk.
 */
import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';

/** Lazy route module: react-router 7 `lazy` resolving to `{ Component }`. */
const page =
  (load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] =>
  async () => ({
    Component: (await load()).default,
  });

/** Route objects of the device pages; relative paths, to be placed under the shell's root layout. */
export const deviceRoutes: RouteObject[] = [
  { path: 'device', element: <Navigate to="/device/list" replace /> },
  { path: 'device/list', lazy: page(() => import('./pages/DeviceListPage')) },
  {
    path: 'device/detail/:tangramId',
    lazy: page(() => import('./pages/DeviceDetailPage')),
    children: [
      { index: true, element: <Navigate to="telemetry-status" replace /> },
      { path: 'telemetry-status', lazy: page(() => import('./pages/TelemetryStatusPage')) },
      { path: 'history-chart', lazy: page(() => import('./pages/HistoryChartPage')) },
      { path: 'realtime-chart', lazy: page(() => import('./pages/RealtimeChartPage')) },
      { path: 'app-rules', lazy: page(() => import('./pages/AppRulesPage')) },
      { path: 'remote-control', lazy: page(() => import('./pages/RemoteControlPage')) },
      { path: 'custom-page', lazy: page(() => import('../custom-page/DevicePageTab')) },
    ],
  },
];
