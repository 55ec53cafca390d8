/** Product routes of the console (spec §2: `product` → `product/list`). Every page is a lazy chunk. */
import { Navigate, type RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazyPage';

/** Route objects of the product pages; relative paths, placed under the shell's authenticated layout. */
export const productRoutes: RouteObject[] = [
  { path: 'product', element: <Navigate to="/product/list" replace /> },
  { path: 'product/list', lazy: lazyPage(() => import('./ProductListPage')) },
];
