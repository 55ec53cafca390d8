/**
 * The web benches' dashboard: a vendor with three devices (the factory's sensors: temperature, humidity, vibration,
 * current) and one dashboard page of five widgets — latest value, gauge, line chart, alerts, devices table — saved
 * through the API, and a logged-in browser session (the console's localStorage, as Playwright's storage state) to
 * open it with, so a measured load carries no login page. `gauges` instead saves twelve gauges, one per device and key,
 * to measure what a gauge costs per live message.
 */
import { dashboardPaths, type TDashboardPage, type TDashboardState } from '@tessera/contracts';
import { buildDeviceProject, buildVendor, TEST_PASSWORD, type TTestServer } from '@tessera/server/testing';
import type { Browser } from 'playwright-core';

/** What a bench needs to open the dashboard: its widget ids, the session, and the devices to publish as. */
export interface TBenchDashboard {
  widgetIds: number[];
  /** Playwright storage state (JSON) of a vendor logged in to the console. */
  session: string;
  devices: { tangramId: string; secret: string }[];
}

/** The bench dashboards: the five widgets of a factory's first page, or a gauge per device and key. */
export type TBenchDashboardKind = 'five' | 'gauges';

/** The keys every bench device publishes. */
const BENCH_KEYS = ['temperature', 'humidity', 'vibration', 'current'] as const;

/** Creates the vendor, devices and dashboard on `server`, and logs in once in `browser` to keep the session. */
export async function buildBenchDashboard(
  server: TTestServer,
  browser: Browser,
  kind: TBenchDashboardKind = 'five',
): Promise<TBenchDashboard> {
  const vendor = await buildVendor(server);
  const built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
  const [a, b, c] = built.devices.map((d) => d.tangramId);
  const created = await server.api<TDashboardPage>('POST', dashboardPaths.pages, { token: vendor.token, body: { name: 'bench' } });
  const widget = (type: string, parameter: object, x: number, y: number, w = 6) => ({
    new: true,
    type,
    title: type,
    parameter: JSON.stringify(parameter),
    layout: { x, y, w, h: 4 },
  });
  const saved = await server.api<TDashboardState>('PUT', dashboardPaths.widgets(created.body.id), {
    token: vendor.token,
    body: {
      widgetList:
        kind === 'gauges'
          ? [a, b, c].flatMap((tangramId, i) =>
              BENCH_KEYS.map((key, j) => widget('gauge', { tangram_id: tangramId, key, min: 0, max: 50 }, j * 3, i * 4, 3)),
            )
          : [
              widget('latest', { tangram_id: a, key: 'temperature' }, 0, 0),
              widget('gauge', { tangram_id: b, key: 'temperature', min: 0, max: 50 }, 6, 0),
              widget('line', { series: [{ tangram_id: a, key: 'temperature' }] }, 0, 4),
              widget('alerts', {}, 6, 4),
              widget('devices', { tangram_ids: [a, b, c] }, 0, 8),
            ],
    },
  });
  if (saved.status !== 200) throw new Error(`saving the bench dashboard answered ${saved.status}: ${JSON.stringify(saved.body)}`);

  const context = await browser.newContext({ baseURL: server.httpUrl, locale: 'zh-TW' });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByTestId('login-tab-vendor').click();
  await page.getByTestId('login-email').fill(vendor.email);
  await page.getByTestId('login-password').fill(TEST_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  const session = JSON.stringify(await context.storageState());
  await context.close();
  return { widgetIds: saved.body.widgetList.map((w) => w.id), session, devices: built.devices };
}
