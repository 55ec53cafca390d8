/**
 * The console's routes for a walk of every page (e2e/tests/route-walk.e2e.ts), taken from the router's own table
 * (`apps/web/src/app/routes.tsx`), with their parameters filled in, and a client-side visit that does not reload the
 * console (the router follows `popstate`), so a walk of ~60 pages costs seconds, not a login and a page load each.
 */
import type { Page } from 'playwright-core';
import type { RouteObject } from 'react-router';

/**
 * The console's route table. Imported at run time by its path: type-checking the web app's sources belongs to its own
 * project (apps/web: JSX, Vite's `import.meta.glob`), not to this one.
 */
async function loadConsoleRoutes(): Promise<RouteObject[]> {
  const file: string = new URL('../../apps/web/src/app/routes.tsx', import.meta.url).pathname;
  return ((await import(/* @vite-ignore */ file)) as { consoleRoutes: RouteObject[] }).consoleRoutes;
}

/** Every path of a route table, parameters as written (`/project/detail/:id`), outermost first. */
export function routePaths(routes: readonly RouteObject[], base = ''): string[] {
  return routes.flatMap((r) => {
    const path = r.path === undefined ? base : `${base}/${r.path}`.replace(/\/+/g, '/');
    return [...(r.path !== undefined ? [path] : []), ...(r.children ? routePaths(r.children, path) : [])];
  });
}

/**
 * Paths a walk does not open: the sign-in pages (a walk is logged in), logout (it would end the walk), the router's
 * catch-all, and the LINE link page (it confirms a link token the bot sent, which a walk has none of).
 */
const NOT_WALKED = /^\/(login|register|forgot|reset|setpwd|logout)(\/|$)|^\/\*$|^\/line-notify\/link$/;

/** The console's routes with `params` filled in (`:id` → `params.id`), the ones a walk skips left out. */
export async function consolePaths(params: Record<string, string>): Promise<string[]> {
  return routePaths(await loadConsoleRoutes())
    .filter((p) => !NOT_WALKED.test(p))
    .map((p) =>
      p.replace(/:(\w+)/g, (_, name: string) => {
        const value = params[name];
        if (value === undefined) throw new Error(`no value for :${name} in ${p}`);
        return value;
      }),
    );
}

/** Goes to `path` inside the loaded console, as a link would (pushState + popstate: no reload, the session stays). */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({ idx: (window.history.state?.idx ?? 0) + 1 }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, path);
}

/**
 * Waits until the page has drawn what it loads: no spinner or skeleton in the content for a moment (at most `timeoutMs`
 * per wait). Checked again after the moment: the route's code may arrive during it (the router keeps the previous page
 * until then) and the new page then starts its reads.
 */
export async function waitForPageDrawn(page: Page, timeoutMs = 8_000): Promise<void> {
  const notBusy = () =>
    page
      .waitForFunction(
        () => {
          const busy = document.querySelector(
            '.ant-layout-content .ant-spin-spinning, .ant-layout-content .ant-skeleton, .ant-spin-fullscreen',
          );
          return !busy && document.querySelector('.ant-layout-content') !== null;
        },
        undefined,
        { timeout: timeoutMs, polling: 100 },
      )
      .catch(() => undefined);
  await notBusy();
  await page.waitForTimeout(250);
  await notBusy();
}
