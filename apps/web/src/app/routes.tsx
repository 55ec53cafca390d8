/**
 * The route table of spec §2 for the sections built so far (docs/decisions/console.md): each feature owns its
 * routes (`features/<feature>/routes.tsx`) and this file places them: the sign-in pages outside the authenticated
 * layout, the rest inside it, `/` → default page, any other path → / (the spec's /404 rule). Every page is a lazy
 * chunk through `lib/lazyPage`; `router.tsx` puts this table under the guard.
 */
import { Navigate, type RouteObject } from 'react-router';
import { adminRoutes } from '../features/admin/routes';
import { aiModelRoutes } from '../features/ai-models/routes';
import { alertRoutes } from '../features/alerts/routes';
import { analyticsRoutes } from '../features/analytics/routes';
import { auditLogRoutes } from '../features/audit-log/routes';
import { authorisationRoutes } from '../features/authorisation/routes';
import { dashboardRoutes } from '../features/dashboard/routes';
import { authRoutes, loginRoutes } from '../features/auth/routes';
import { deviceRoutes } from '../features/devices/routes';
import { downloadRoutes } from '../features/downloads/routes';
import { lineRoutes } from '../features/line/routes';
import { machineRoutes } from '../features/machines/routes';
import { platformRuleRoutes } from '../features/platform-rules/routes';
import { platformTelemetryRoutes } from '../features/platform-telemetry/routes';
import { productRoutes } from '../features/products/routes';
import { profileRoutes } from '../features/profile/routes';
import { projectRoutes } from '../features/projects/routes';
import { loadConsoleStrings } from '../i18n';
import { lazyAlso, lazyPage } from '../lib/lazyPage';
import { getLanguage } from '../lib/session';
import DefaultRedirect from './DefaultRedirect';

/**
 * `routes` whose lazy pages load the console's other pages' strings (i18n/strings.<language>.ts) together with their
 * code, so a page never draws before its strings; the dashboard's come with the layout.
 */
function withPageStrings(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const { lazy, children } = route;
    return {
      ...route,
      lazy: lazyAlso(lazy, () => loadConsoleStrings(getLanguage(), ['pages'])),
      ...(children ? { children: withPageStrings(children) } : {}),
    } as RouteObject;
  });
}

/** The console's pages, in the order of spec §2: sign-in pages, then the authenticated layout's pages, then the 404 rule. */
export const consoleRoutes: RouteObject[] = [
  ...loginRoutes,
  {
    // antd's App (message, modal, notification) around every page but /login, which draws without them.
    lazy: lazyPage(() => import('./AntAppOutlet')),
    children: [
      ...authRoutes,
      {
        // The layout's and the dashboard's strings arrive with the layout, in the language in use; every other page's
        // before that page (withPageStrings).
        lazy: lazyPage(() =>
          Promise.all([import('./AppLayout'), loadConsoleStrings(getLanguage(), ['dashboard'])]).then(([layout]) => layout),
        ),
        children: [
          { index: true, element: <DefaultRedirect /> },
          ...dashboardRoutes,
          ...withPageStrings([
            ...profileRoutes,
            ...adminRoutes,
            ...productRoutes,
            ...projectRoutes,
            ...deviceRoutes,
            ...alertRoutes,
            ...authorisationRoutes,
            ...analyticsRoutes,
            ...downloadRoutes,
            ...machineRoutes,
            ...lineRoutes,
            ...platformRuleRoutes,
            ...platformTelemetryRoutes,
            ...aiModelRoutes,
            ...auditLogRoutes,
          ]),
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];
