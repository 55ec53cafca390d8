/**
 * The route table of spec §2 for the sections built so far (docs/decisions/console.md): login screens, /logout,
 * / → default page, profile, product, project and the device routes. Any other path → / (the spec's /404 rule).
 * Every page is a lazy chunk; the guard runs in {@link Root}.
 */
import { Spin } from 'antd';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { alertRoutes } from '../features/alerts/routes';
import { deviceRoutes } from '../features/devices/routes';
import { lineNotifyRoutes } from '../features/line-notify/routes';
import DefaultRedirect from './DefaultRedirect';
import { lazyPage } from '../lib/lazyPage';
import Root from './Root';

const list = <Navigate to="list" replace />;

/** The console's routes (exported for tests and for the e2e lead). */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    hydrateFallbackElement: <Spin fullscreen />,
    children: [
      { path: 'login', lazy: lazyPage(() => import('../features/auth/LoginPage')) },
      { path: 'forgot', lazy: lazyPage(() => import('../features/auth/ForgotPage')) },
      { path: 'reset', lazy: lazyPage(() => import('../features/auth/ResetPage')) },
      { path: 'setpwd/:type', lazy: lazyPage(() => import('../features/auth/SetPwdPage')) },
      { path: 'logout', lazy: lazyPage(() => import('../features/auth/LogoutPage')) },
      {
        lazy: lazyPage(() => import('./AppLayout')),
        children: [
          { index: true, element: <DefaultRedirect /> },
          { path: 'profile', lazy: lazyPage(() => import('../features/profile/ProfilePage')) },
          { path: 'product', element: list },
          { path: 'product/list', lazy: lazyPage(() => import('../features/products/ProductListPage')) },
          { path: 'project', element: list },
          { path: 'project/list', lazy: lazyPage(() => import('../features/projects/ProjectListPage')) },
          { path: 'project/new', lazy: lazyPage(() => import('../features/projects/ProjectNewPage')) },
          {
            path: 'project/detail/:id',
            lazy: lazyPage(() => import('../features/projects/ProjectDetailPage')),
            children: [
              { index: true, element: <Navigate to="devices" replace /> },
              { path: 'devices', lazy: lazyPage(() => import('../features/projects/ProjectDevicesTab')) },
              { path: 'configure', lazy: lazyPage(() => import('../features/configure/ConfigureTab')) },
              { path: 'rule', lazy: lazyPage(() => import('../features/rules/RuleTab')) },
              { path: 'system', lazy: lazyPage(() => import('../features/project-settings/SystemTab')) },
              { path: 'custom-page', lazy: lazyPage(() => import('../features/custom-page/CustomPageTab')) },
              { path: 'notification', lazy: lazyPage(() => import('../features/project-settings/NotificationTab')) },
              { path: 'roles', lazy: lazyPage(() => import('../features/project-roles/ProjectRolesTab')) },
            ],
          },
          ...deviceRoutes,
          ...alertRoutes,
          ...lineNotifyRoutes,
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/** The browser router of the console. */
export const router = createBrowserRouter(routes);
