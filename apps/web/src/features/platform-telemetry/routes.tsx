/** Platform-telemetry routes of the console (spec §2: `platform-telemetry` redirects to `instance`, the formula editor). */
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of platform telemetry; relative paths, placed under the shell's authenticated layout. */
export const platformTelemetryRoutes: RouteObject[] = [
  { path: 'platform-telemetry', element: <Navigate to="/platform-telemetry/instance" replace /> },
  { path: 'platform-telemetry/instance', lazy: lazyPage(() => import('./pages/PlatformTelemetryPage')) },
];
