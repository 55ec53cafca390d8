/**
 * End to end in Chromium against the real server: the dashboard. `/` lands on it; a vendor makes a page from the
 * empty state and adds one widget of each type through its settings form; a latest-value widget changes when a real
 * MQTT client publishes; a widget is moved and resized and the layout, like a renamed widget, survives a reload;
 * pages are added, moved and deleted after a confirmation. A user's widget picker offers only their authorised
 * devices, and a widget of a device they lost says so. At a phone's width the widgets stack.
 */
import mqtt from 'mqtt';
import { dashboardPaths, type TDashboardPageList, type TDashboardState } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceAuthz, writeIngestBatch } from '@tessera/server';
import {
  buildAccount,
  buildDeviceProject,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { confirmDialog, login, pickOption, publishAsDevice } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const MODE = { name: 'Mode', index: 4, bytesLength: 2, values: [{ value: 2, label: 'Fault' }] };

describe('dashboard: pages and widgets on a grid, live values, persisted layout (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let built: TBuiltProject;

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3, statusGroups: [MODE] });
    // Two days of hourly temperatures for the charts.
    const now = Date.now();
    await writeIngestBatch(server.ctx.db, {
      telemetry: built.devices.slice(0, 2).flatMap((d, n) =>
        Array.from({ length: 48 }, (_, i) => ({
          deviceId: d.id,
          key: 'temperature',
          ts: now - i * 3_600_000,
          svcRecvTs: now,
          v1: 20 + n + (i % 5),
          v2: null,
          v3: null,
        })),
      ),
      status: [],
      rejected: [],
    });
    user = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId });
    await server.ctx.db.insert(deviceAuthz).values([
      { deviceId: built.devices[0].id, accountId: user.accountId },
      { deviceId: built.devices[1].id, accountId: user.accountId },
    ]);
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const widgets = () => page.locator('[data-testid^="grid-item-"]');
  /** Picks `text` in the select `testId` until the select shows it (options that load late can swallow a click). */
  async function choose(testId: string, text: string, p: Page = page): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      await pickOption(p, testId, text);
      try {
        await expect.poll(() => p.getByTestId(testId).textContent(), { timeout: 2_000 }).toContain(text);
        return;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  }
  async function pickDevice(testId: string, tangramId: string): Promise<void> {
    await page.locator(`[data-testid="${testId}"] input`).fill(tangramId.slice(-12));
    await pickOption(page, testId, tangramId.slice(-12));
    await page.getByTestId('widget-title').click();
  }
  /**
   * Saves the widget form once and waits for it to close. The console runs without motion in these tests (reduced
   * motion), so the click lands; clicking again while a slow save is still running would add the widget twice.
   */
  async function saveForm(p: Page = page): Promise<void> {
    await p.getByTestId('widget-save').click();
    await p.getByTestId('widget-form').waitFor({ state: 'detached', timeout: 20_000 });
  }
  /** Adds a widget of `type` through the form; `fill` sets the type's fields. */
  async function addWidget(type: string, title: string, fill: () => Promise<void>): Promise<void> {
    const before = await widgets().count();
    await page.getByTestId('widget-add').first().click();
    await pickOption(page, 'widget-type', new RegExp(`^${type}$`));
    await page.getByTestId('widget-title').fill(title);
    await fill();
    // Close any dropdown a multiple select left open.
    await page.locator('.ant-modal-title').click();
    await saveForm();
    await expect.poll(() => widgets().count()).toBe(before + 1);
    await expect.poll(() => page.getByTestId('dashboard-grid').getAttribute('data-saving')).toBe('false');
  }
  const widgetByTitle = (title: string) => widgets().filter({ hasText: title });
  async function savedState(): Promise<TDashboardState> {
    const pages = await server.api<TDashboardPageList>('GET', dashboardPaths.pages, { token: vendor.token });
    return (await server.api<TDashboardState>('GET', dashboardPaths.widgets(pages.body.data[0].id), { token: vendor.token })).body;
  }

  it('lands on the dashboard at / and makes the first page from the empty state', async () => {
    await page.goto('/');
    await page.waitForURL(/\/dashboard/);
    await page.getByText('尚無儀表板').waitFor();
    await page.getByTestId('page-add').click();
    await page.getByTestId('page-name').fill('廠房總覽');
    await page.getByTestId('page-name-save').click();
    await page.getByTestId('page-tab-1').filter({ hasText: '廠房總覽' }).waitFor();
    await page.getByText('此頁面尚無小工具').waitFor();
  });

  it('adds one widget of each type, and a latest value changes when a real device publishes', async () => {
    const [d0, d1, d2] = built.devices;
    await addWidget('最新數值', 'Temp now', async () => {
      await pickDevice('widget-devices', d0.tangramId);
      await choose('widget-key', 'temperature');
    });
    await addWidget('儀表', 'Temp gauge', async () => {
      await pickDevice('widget-devices', d1.tangramId);
      await choose('widget-key', 'temperature');
      await page.getByLabel('最大值').fill('50');
    });
    await addWidget('折線圖', 'Trend', async () => {
      await pickDevice('widget-devices', d0.tangramId);
      await pickDevice('widget-devices', d1.tangramId);
      await choose('widget-keys', 'temperature');
    });
    await addWidget('長條圖', 'Bars', async () => {
      await pickDevice('widget-devices', d1.tangramId);
      await choose('widget-keys', 'temperature');
    });
    await addWidget('狀態', 'Mode', async () => pickDevice('widget-devices', d2.tangramId));
    await addWidget('警報', 'Alerts', async () => undefined);
    await addWidget('裝置表格', 'Fleet', async () => {
      await pickDevice('widget-devices', d0.tangramId);
      await pickDevice('widget-devices', d2.tangramId);
      await choose('widget-key', 'temperature');
    });
    const saved = (await savedState()).widgetList;
    expect(saved.map((w) => w.type)).toEqual(['latest', 'gauge', 'line', 'bar', 'status', 'alerts', 'devices']);
    expect(JSON.parse(saved[2].parameter).series).toEqual([
      { tangram_id: d0.tangramId, key: 'temperature' },
      { tangram_id: d1.tangramId, key: 'temperature' },
    ]);

    // Charts draw the stored history; the gauge and the table show the newest value.
    await expect
      .poll(async () => Number(await widgetByTitle('Trend').getByTestId('widget-line-chart').getAttribute('data-points')))
      .toBeGreaterThan(40);
    await expect
      .poll(async () => Number(await widgetByTitle('Bars').getByTestId('widget-bar-chart').getAttribute('data-points')))
      .toBeGreaterThan(20);
    expect(await widgetByTitle('Temp gauge').getByTestId('widget-gauge').getAttribute('data-value')).toBe('21');

    // Live: a real MQTT device publishes; the latest value, the table and the status change without a reload.
    await publishAsDevice(server.mqttUrl, d0.tangramId, d0.secret, [{ key: 'temperature', ts: Date.now(), vs: [36.6] }]);
    await expect.poll(() => widgetByTitle('Temp now').getByTestId('widget-latest-value').textContent()).toContain('36.6');
    await expect.poll(() => widgetByTitle('Fleet').getByTestId(`widget-devices-value-${d0.tangramId}`).textContent()).toBe('36.6');
    // The gauge moves to a live value of its own key (its chart takes the new value as a patch, not a rebuilt option).
    await publishAsDevice(server.mqttUrl, d1.tangramId, d1.secret, [{ key: 'temperature', ts: Date.now(), vs: [42.5] }]);
    await expect.poll(() => widgetByTitle('Temp gauge').getByTestId('widget-gauge').getAttribute('data-value')).toBe('42.5');
    expect(await widgetByTitle('Temp gauge').locator('canvas').count()).toBe(1);
    const client = await mqtt.connectAsync(server.mqttUrl, {
      username: d2.tangramId,
      password: d2.secret,
      clientId: d2.tangramId,
      reconnectPeriod: 0,
    });
    await client.publishAsync(`devices/${d2.tangramId}/status`, JSON.stringify({ ts: Date.now(), value: 2 << 4 }), { qos: 1 });
    await client.endAsync();
    await expect.poll(() => widgetByTitle('Mode').getByTestId('widget-status').textContent()).toContain('Fault');
    await snap(page, 'dashboard');
  });

  it('moves and resizes a widget by mouse, renames one, and keeps all of it after a reload', async () => {
    const item = widgetByTitle('Temp now');
    const before = (await savedState()).widgetList.find((w) => w.title === 'Temp now');
    const handle = item.locator('.widget-drag');
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = await handle.boundingBox();
    if (!box || !before) throw new Error('no widget');
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 400, box.y + box.height / 2, { steps: 12 });
    await page.mouse.up();
    // The person is told the dragged layout was saved (it used to be saved silently).
    await page.getByTestId('layout-saved').waitFor();
    await expect
      .poll(async () => (await savedState()).widgetList.find((w) => w.title === 'Temp now')?.layout.x)
      .toBeGreaterThan(before.layout.x);

    const corner = item.locator('.react-resizable-handle-se');
    await corner.scrollIntoViewIfNeeded();
    const c = await corner.boundingBox();
    if (!c) throw new Error('no resize handle');
    await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
    await page.mouse.down();
    await page.mouse.move(c.x + 200, c.y + 120, { steps: 12 });
    await page.mouse.up();
    await expect
      .poll(async () => (await savedState()).widgetList.find((w) => w.title === 'Temp now')?.layout.w)
      .toBeGreaterThan(before.layout.w);
    const moved = (await savedState()).widgetList.find((w) => w.title === 'Temp now');

    await widgetByTitle('Alerts').locator('[data-testid^="widget-edit-"]').click();
    await page.getByTestId('widget-title').fill('Latest alerts');
    await saveForm();
    await widgetByTitle('Latest alerts').waitFor();
    await expect.poll(() => page.getByTestId('dashboard-grid').getAttribute('data-saving')).toBe('false');

    await page.reload();
    await widgetByTitle('Latest alerts').waitFor();
    expect(await widgets().count()).toBe(7);
    const after = (await savedState()).widgetList.find((w) => w.title === 'Temp now');
    expect(after?.layout).toEqual(moved?.layout);
  });

  it('adds, moves and deletes pages (after a confirmation)', async () => {
    await page.getByTestId('page-add').click();
    await page.getByTestId('page-name').fill('Line 2');
    await page.getByTestId('page-name-save').click();
    // The page menu belongs to the page shown: wait until the new page is the active tab.
    const activeTab = (position: number) => page.locator(`.ant-tabs-tab-active [data-testid="page-tab-${position}"]`);
    await activeTab(2).filter({ hasText: 'Line 2' }).waitFor();
    await page.getByTestId('page-menu').click();
    await page.getByRole('menuitem', { name: '左移' }).click();
    await activeTab(1).filter({ hasText: 'Line 2' }).waitFor();
    await page.getByTestId('page-menu').click();
    await page.getByTestId('page-delete').click();
    await confirmDialog(page, 'page-delete-confirm');
    await expect.poll(() => page.locator('[data-testid^="page-tab-"]').count()).toBe(1);
    await widgetByTitle('Latest alerts').waitFor();
  });

  it('offers a user only their devices, says when a widget lost its device, and stacks widgets at a phone width', async () => {
    const { page: userPage } = await newPage(browser, server.httpUrl, 'en');
    await login(userPage, user.email, TEST_PASSWORD, 'user');
    await userPage.waitForURL(/\/dashboard/);
    await userPage.getByTestId('page-add').click();
    await userPage.getByTestId('page-name').fill('Mine');
    await userPage.getByTestId('page-name-save').click();
    await userPage.getByTestId('widget-add').first().click();
    await userPage.getByTestId('widget-devices').click();
    const options = userPage.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => options.count()).toBe(2);
    const offered = await options.allTextContents();
    expect(offered.some((o) => o.includes(built.devices[2].tangramId.slice(-12)))).toBe(false);
    await options.filter({ hasText: built.devices[1].tangramId.slice(-12) }).click();
    await userPage.getByTestId('widget-title').click();
    await choose('widget-key', 'temperature', userPage);
    await saveForm(userPage);
    await userPage.getByTestId('widget-latest-value').waitFor();

    await server.ctx.db
      .delete(deviceAuthz)
      .where(and(eq(deviceAuthz.accountId, user.accountId), eq(deviceAuthz.deviceId, built.devices[1].id)));
    await userPage.reload();
    await userPage.getByTestId('widget-device-gone').waitFor();

    await userPage.setViewportSize({ width: 390, height: 844 });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.locator('[data-testid^="widget-"][data-type]').first().waitFor();
    expect(await page.locator('.react-grid-layout').count()).toBe(0);
    const boxes = await Promise.all(
      (await page.locator('[data-testid^="widget-"][data-type]').all()).slice(0, 3).map((w) => w.boundingBox()),
    );
    expect(new Set(boxes.map((b) => Math.round(b?.x ?? -1))).size).toBe(1);
    await snap(page, 'dashboard-phone');
    await userPage.close();
  });
});
