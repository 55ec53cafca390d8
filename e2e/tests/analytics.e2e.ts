/**
 * End to end in Chromium against the real server: analytics. Three devices publish known temperatures and currents
 * through a real MQTT client; a vendor compares them: the series are drawn (one chart per unit once a second key of
 * another unit is added), the statistics table shows each series' exact figures, the chart data downloads as CSV with
 * every bucket's value and the chart as a PNG; a sixth device cannot be chosen. The activation rate shows how many of
 * the vendor's devices have reported. A user's picker offers only their authorised devices.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceAuthz } from '@tessera/server';
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
import { login, pickOption, publishAsDevice } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const FIVE_MIN = 300_000;
const POINTS = 10;

describe('analytics: comparing devices, statistics, CSV and PNG, the device limit (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let built: TBuiltProject;
  // One point per 5-minute bucket (the 24-hour chart's bucket), so every bucket holds exactly the published value.
  const lastBucket = Math.floor(Date.now() / FIVE_MIN) * FIVE_MIN;
  const tsOf = (k: number) => lastBucket - k * FIVE_MIN;

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 6 });
    // Device n publishes temperature 100·n + k and current n + k/10 at bucket k (k = 0 newest).
    for (const [n, d] of built.devices.slice(0, 3).entries()) {
      await publishAsDevice(
        server.mqttUrl,
        d.tangramId,
        d.secret,
        Array.from({ length: POINTS }, (_, k) => [
          { key: 'temperature', ts: tsOf(k), vs: [100 * n + k] },
          { key: 'current', ts: tsOf(k), vs: [n + k / 10] },
        ]).flat(),
      );
    }
    user = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId });
    await server.ctx.db.insert(deviceAuthz).values({ deviceId: built.devices[1].id, accountId: user.accountId });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl, 'en'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const choose = async (p: Page, tangramId: string) => {
    await p.locator('[data-testid="analytics-devices"] input').fill(tangramId.slice(-12));
    await pickOption(p, 'analytics-devices', tangramId.slice(-12));
  };
  const statsRow = (label: RegExp) => page.locator('[data-testid="analytics-stats"] tbody tr').filter({ hasText: label });

  it('compares three devices: draws them, shows their statistics and downloads the chart data as CSV', async () => {
    await page.goto('/analytics');
    await page.getByTestId('analytics-empty').waitFor();
    for (const d of built.devices.slice(0, 3)) await choose(page, d.tangramId);
    await page.keyboard.press('Escape');
    // The first key is chosen by itself: temperature, one chart of three series with every published bucket.
    const chart = page.getByTestId('analytics-chart');
    await expect.poll(() => chart.getAttribute('data-points'), { timeout: 15_000 }).toBe(String(3 * POINTS));
    await expect.poll(() => page.getByTestId('analytics-chart-card').count()).toBe(1);

    // Statistics of device 1's temperature: 100..109.
    const row = statsRow(new RegExp(`${built.devices[1].tangramId.slice(-12)}.*temperature`));
    await expect
      .poll(() => row.locator('td').allTextContents(), { timeout: 15_000 })
      .toEqual(expect.arrayContaining(['10', '100', '109', '104.5']));
    const cells = await row.locator('td').allTextContents();
    // count, min, max, avg, stddev (population, of 0..9 = 2.872), p5, median, p95.
    expect(cells.slice(1)).toEqual(['10', '100', '109', '104.5', '2.872', '100', '104', '109']);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('analytics-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^analytics-\d{8}-\d{6}\.csv$/);
    const records = parse(readFileSync(await download.path()), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(POINTS);
    const columns = Object.keys(records[0]);
    expect(columns.slice(0, 2)).toEqual(['time', 'ts_ms']);
    expect(columns).toHaveLength(5);
    expect(records.map((r) => Number(r.ts_ms))).toEqual(Array.from({ length: POINTS }, (_, i) => tsOf(POINTS - 1 - i)));
    for (const [n, d] of built.devices.slice(0, 3).entries()) {
      const column = columns.find((c) => c.includes(d.tangramId.slice(-12)));
      expect(column, d.tangramId).toBeDefined();
      expect(records.map((r) => Number(r[column ?? '']))).toEqual(Array.from({ length: POINTS }, (_, i) => 100 * n + (POINTS - 1 - i)));
    }
    await snap(page, 'analytics');
  });

  it('draws a chart per unit when a key of another unit is added, and saves a chart as PNG', async () => {
    await pickOption(page, 'analytics-keys', 'current');
    await expect.poll(() => page.getByTestId('analytics-chart-card').count()).toBe(2);
    await expect.poll(() => page.getByTestId('analytics-chart').nth(1).getAttribute('data-points')).toBe(String(3 * POINTS));
    const row = statsRow(new RegExp(`${built.devices[2].tangramId.slice(-12)}.*current`));
    await expect.poll(async () => (await row.locator('td').allTextContents()).slice(1, 4)).toEqual(['10', '2', '2.9']);

    const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('analytics-png').first().click()]);
    expect(png.suggestedFilename()).toMatch(/\.png$/);
    expect(readFileSync(await png.path()).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('refuses a sixth device, and shows the activation rate of the vendor’s devices', async () => {
    for (const d of built.devices.slice(3, 5)) await choose(page, d.tangramId);
    await page.locator('[data-testid="analytics-devices"] input').fill(built.devices[5].tangramId.slice(-12));
    await page.getByTestId('analytics-devices-full').waitFor();
    const sixth = page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: built.devices[5].tangramId.slice(-12) });
    await expect.poll(() => sixth.getAttribute('aria-disabled')).toBe('true');
    await sixth.click({ force: true });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid="analytics-devices"] .ant-select-selection-item').count()).toBe(5);

    // Six devices registered today, three have reported: 50 % on the last day and for the product.
    const activation = page.getByTestId('analytics-activation');
    await activation.getByTestId('analytics-activation-table').waitFor();
    expect(await activation.locator('tbody tr').first().locator('td').allTextContents()).toEqual([expect.any(String), '6', '3', '50%']);
  });

  it('offers a user only the devices authorised to them, without the activation rate', async () => {
    const { page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW');
    await login(userPage, user.email, TEST_PASSWORD, 'user');
    await userPage.goto('/analytics');
    await userPage.getByTestId('analytics-empty').waitFor();
    await userPage.getByTestId('analytics-devices').click();
    const options = userPage.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => options.count()).toBe(1);
    expect(await options.first().textContent()).toContain(built.devices[1].tangramId.slice(-12));
    expect(await userPage.getByTestId('analytics-activation').count()).toBe(0);
    await userPage.close();
  });
});
