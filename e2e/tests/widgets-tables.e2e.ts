/**
 * End to end in Chromium, widgets and tables read like a product: the chart widget's legend names devices (not
 * "000001 temperature"); the devices widget's value column has a translated title (not the raw key "current"); the
 * alerts dashboard and history show their last columns ("最近發生", actions) at 1440 px without cutting them off; the
 * download list names the device, not its serial number.
 */
import { dashboardPaths, downloadPaths, type TDashboardPage, type TWidgetInput } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '@tessera/server';
import {
  buildDeviceProject,
  buildVendor,
  insertAlert,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, snap } from '../support/browser.js';
import { login, publishAsDevice } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('widgets and tables (Chromium, 1440 px)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  const names: string[] = [];

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    for (const d of project.devices) {
      const [row] = await server.ctx.db.select().from(devices).where(eq(devices.id, d.id));
      names.push(row.name);
      await publishAsDevice(server.mqttUrl, d.tangramId, d.secret, [
        { key: 'temperature', ts: Date.now() - 60_000, vs: [21.5] },
        { key: 'current', ts: Date.now() - 60_000, vs: [3.2] },
      ]);
      await insertAlert(server.ctx.db, d.id, {
        firstSeenAt: Date.now() - 3_600_000,
        level: 'alert',
        message: 'Motor current far above the rated value',
      });
    }
    const token = vendor.token;
    const dashboard = await server.api<TDashboardPage>('POST', dashboardPaths.pages, { token, body: { name: 'Line' } });
    const [d0, d1] = project.devices;
    const widgetList: TWidgetInput[] = [
      {
        new: true,
        type: 'line',
        title: 'Trend',
        parameter: JSON.stringify({
          series: [
            { tangram_id: d0.tangramId, key: 'temperature' },
            { tangram_id: d1.tangramId, key: 'temperature' },
          ],
          range_ms: 86_400_000,
        }),
        layout: { x: 0, y: 0, w: 6, h: 4 },
      },
      {
        new: true,
        type: 'devices',
        title: 'Motors',
        parameter: JSON.stringify({ tangram_ids: [d0.tangramId, d1.tangramId], key: 'current' }),
        layout: { x: 6, y: 0, w: 6, h: 4 },
      },
    ];
    expect((await server.api('PUT', dashboardPaths.widgets(dashboard.body.id), { token, body: { widgetList } })).status).toBe(200);
    const job = await server.api('POST', downloadPaths.records, {
      token,
      body: { name: 'One motor', tangram_ids: [d0.tangramId], start_ts: Date.now() - 86_400_000, end_ts: Date.now() },
    });
    expect(job.status).toBeLessThan(300);
    browser = await launchBrowser();
    const context = await browser.newContext({ baseURL: server.httpUrl, locale: 'zh-TW', viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the chart legend names the devices; the devices widget titles its value column in words', async () => {
    await page.goto('/dashboard');
    const chart = page.locator('[data-legend]');
    await chart.waitFor();
    await expect.poll(() => chart.getAttribute('data-legend')).toBe(`${names[0]} temperature|${names[1]} temperature`);
    const headers = page.getByTestId('widget-devices').locator('thead th');
    await expect.poll(() => headers.allTextContents()).toContain('最新值：current');
    expect(await headers.allTextContents()).not.toContain('current');
    await snap(page, 'widgets-names');
  }, 120_000);

  for (const path of ['/alerts/dashboard', '/alerts/history']) {
    it(`${path} shows its last columns at 1440 px, nothing cut off`, async () => {
      await page.goto(path);
      const table = page.locator('.ant-table-content').first();
      await page.locator('[data-testid^="alert-row-"]').first().waitFor();
      const { scroll, client } = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(scroll).toBeLessThanOrEqual(client + 1);
      const box = await table.boundingBox();
      const lastSeen = await page.locator('thead th', { hasText: '最近發生' }).boundingBox();
      expect(lastSeen).not.toBeNull();
      expect((lastSeen?.x ?? 0) + (lastSeen?.width ?? 0)).toBeLessThanOrEqual((box?.x ?? 0) + (box?.width ?? 0) + 1);
      await snap(page, `alerts-1440-${path.split('/').pop()}`);
    }, 120_000);
  }

  it('the download list names the device, not its serial number', async () => {
    await page.goto('/download');
    const device = page.getByTestId('job-device').first();
    await expect.poll(() => device.textContent()).toBe(names[0]);
  }, 120_000);
});
