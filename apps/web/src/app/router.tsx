/** The browser router of the console: the route table of {@link consoleRoutes} under the guard in {@link Root}. */
import { Spin } from 'antd';
import { createBrowserRouter, type RouteObject } from 'react-router';
import Root from './Root';
import { consoleRoutes } from './routes';

/** The console's routes (exported for tests and for the e2e lead). */
export const routes: RouteObject[] = [{ element: <Root />, hydrateFallbackElement: <Spin fullscreen />, children: consoleRoutes }];

/** The browser router of the console. */
export const router = createBrowserRouter(routes);
