/**
 * Sign-in routes of the console (spec §2: `login`, `forgot`, `reset`, `setpwd/{type}`, `logout`; and `register`, the
 * sign-up of §7 register/aiot). They sit outside the authenticated layout; the guard in the shell's root sends a
 * signed-in user away from them.
 */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** The login page's route: placed outside antd's App (app/routes.tsx), whose message and modal it does not use. */
export const loginRoutes: RouteObject[] = [{ path: 'login', lazy: lazyPage(() => import('./LoginPage')) }];

/** Route objects of the other sign-in pages; relative paths, placed under the shell's root. */
export const authRoutes: RouteObject[] = [
  { path: 'register', lazy: lazyPage(() => import('./RegisterPage')) },
  { path: 'forgot', lazy: lazyPage(() => import('./ForgotPage')) },
  { path: 'reset', lazy: lazyPage(() => import('./ResetPage')) },
  { path: 'setpwd/:type', lazy: lazyPage(() => import('./SetPwdPage')) },
  { path: 'logout', lazy: lazyPage(() => import('./LogoutPage')) },
];
