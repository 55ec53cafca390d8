/** Download-centre routes of the console (spec §2: `download`, the download centre). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the download centre; relative paths, placed under the shell's authenticated layout. */
export const downloadRoutes: RouteObject[] = [{ path: 'download', lazy: lazyPage(() => import('./pages/DownloadCenterPage')) }];
