/** The profile route of the console (spec §2 `profile`): account details, password, language and API keys. */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the profile page; relative paths, placed under the shell's authenticated layout. */
export const profileRoutes: RouteObject[] = [{ path: 'profile', lazy: lazyPage(() => import('./ProfilePage')) }];
