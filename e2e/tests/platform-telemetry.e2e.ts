/**
 * End to end in Chromium against the real server: platform telemetry. Two devices publish known motor currents
 * through a real MQTT client; a vendor opens `platform-telemetry` (→ `instance`) from the empty state, mounts both
 * devices, writes the formula with the editor's completion, sees a misspelt key marked at its place, previews the
 * value on the latest data, saves, and reads the right value — which changes when a device publishes again. The
 * platform telemetry shows in a dashboard widget and in analytics, and is deleted after a confirmation. A user has no such page.
 */
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('platform telemetry: a formula over two devices, evaluated as they publish (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let built: TBuiltProject;
  const publish = (n: number, value: number) =>
    publishAsDevice(server.mqttUrl, built.devices[n].tangramId, built.devices[n].secret, [{ key: 'current', ts: Date.now(), vs: [value] }]);

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    await publish(0, 1.5);
    await publish(1, 2.5);
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl, 'en'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const formula = () => page.getByTestId('pt-formula');

  it('mounts two devices, completes and checks the formula, previews and saves it', async () => {
    await page.goto('/platform-telemetry');
    await page.waitForURL(/\/platform-telemetry\/instance$/);
    await page.getByText('尚無平台遙測').waitFor();
    await page.getByTestId('pt-new').click();
    await page.getByTestId('pt-name').fill('Line power');
    await page.getByTestId('pt-unit').fill('kW');
    for (const n of [0, 1]) {
      if (n > 0) {
        // A click outside closes the device picker's list (Escape would ask to close the drawer).
        await page.locator('.ant-drawer-title').click();
        await page.getByTestId('pt-mount').click();
      }
      await page.locator(`[data-testid="pt-device-${n}"] input`).fill(built.devices[n].tangramId.slice(-12));
      await pickOption(page, `pt-device-${n}`, built.devices[n].tangramId.slice(-12));
    }
    expect(await page.getByTestId('pt-alias-1').inputValue()).toBe('m2');

    // Completion: "(m1.cur" offers m1.current; Enter takes it.
    await formula().click();
    await formula().pressSequentially('(m1.cur');
    await page.locator('.ant-select-dropdown:visible [data-testid="formula-completion-m1.current"]').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => formula().inputValue()).toBe('(m1.current');
    // A misspelt key is marked where it is written (the whole text at once: typing it key by key raced the
    // completion list on a loaded machine).
    await formula().fill('(m1.current + m2.curent) * 220');
    await page.locator('.ant-drawer-title').click();
    const problem = page.getByTestId('formula-problem');
    await expect.poll(() => problem.getAttribute('data-position'), { timeout: 20_000 }).toBe('14');
    expect(await page.getByTestId('formula-problem-mark').textContent()).toBe('m');
    expect(await problem.textContent()).toContain('未知的名稱 m2.curent');

    await formula().fill('(m1.current + m2.current) * 220');
    await page.getByTestId('pt-coefficient').fill('0.001');
    await expect.poll(() => problem.count()).toBe(0);
    // The preview on the latest data: (1.5 + 2.5) × 220 × 0.001.
    await expect.poll(() => page.getByTestId('pt-preview').textContent(), { timeout: 10_000 }).toContain('0.88');
    await snap(page, 'platform-telemetry-editor');
    // Escape would close the drawer and lose the formula: it asks first, and "stay" keeps everything.
    await page.getByTestId('pt-unit').focus();
    await page.keyboard.press('Escape');
    await confirmDialog(page, 'unsaved-stay');
    expect(await formula().inputValue()).toBe('(m1.current + m2.current) * 220');
    await page.getByTestId('pt-save').click();
    await page.getByTestId('pt-detail').waitFor();
    expect(await page.getByTestId('pt-detail').textContent()).toContain('Line power');
  });

  it('shows the value evaluated when a device publishes again', async () => {
    await publish(0, 3.5);
    // (3.5 + 2.5) × 220 × 0.001 = 1.32, read again within seconds.
    const value = page.locator('[data-testid^="pt-value-"]');
    await expect.poll(() => value.textContent(), { timeout: 20_000 }).toBe('1.32 kW');
    await expect.poll(() => page.getByTestId('pt-detail-value').textContent(), { timeout: 10_000 }).toContain('1.32');
    // The chosen one follows its live topic: a new value shows at once, not at the next 30-second read.
    await publish(1, 4.5);
    await expect.poll(() => page.getByTestId('pt-detail-value').textContent(), { timeout: 4_000, interval: 100 }).toContain('1.76');
    await expect
      .poll(async () => Number(await page.getByTestId('pt-chart').getAttribute('data-points')), { timeout: 70_000 })
      .toBeGreaterThan(0);
    await snap(page, 'platform-telemetry');
  });

  it('shows its value and trend in a dashboard widget', async () => {
    await page.goto('/dashboard');
    await page.getByTestId('page-add').click();
    await page.getByTestId('page-name').fill('Power');
    await page.getByTestId('page-name-save').click();
    await page.getByTestId('page-tab-1').waitFor();
    await page.getByTestId('widget-add').first().click();
    await pickOption(page, 'widget-type', /^平台遙測$/);
    await pickOption(page, 'widget-platform', 'Line power');
    await page.getByTestId('widget-save').click();
    await page.getByTestId('widget-form').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('widget-platform-value').textContent(), { timeout: 15_000 }).toContain('1.76');
    await expect.poll(async () => Number(await page.getByTestId('widget-platform-chart').getAttribute('data-points'))).toBeGreaterThan(0);
  });

  it('is compared in analytics, with the statistics of its stored points', async () => {
    await page.goto('/analytics');
    await pickOption(page, 'analytics-platform', 'Line power');
    await page.keyboard.press('Escape');
    await expect.poll(async () => Number(await page.getByTestId('analytics-chart').getAttribute('data-points'))).toBeGreaterThan(0);
    const row = page.locator('[data-testid="analytics-stats"] tbody tr').filter({ hasText: 'ƒ Line power' });
    // The stored points (a point a minute: 1.32 and 1.76 in one minute or two) as the database holds them.
    const res = await server.ctx.db.execute(
      sql`select count(*)::int as n, min(value) as mn, max(value) as mx from platform_telemetry_points`,
    );
    const [stored] = (res as unknown as { rows: { n: number; mn: number; mx: number }[] }).rows;
    expect(stored.mx).toBeCloseTo(1.76, 9);
    await expect
      .poll(async () => (await row.locator('td').allTextContents()).slice(1, 4))
      .toEqual([String(stored.n), String(Number(stored.mn.toFixed(3))), '1.76']);
  });

  it('deletes it after a confirmation', async () => {
    await page.goto('/platform-telemetry/instance');
    await page.locator('[data-testid^="pt-delete-"]').first().click();
    await confirmDialog(page, 'pt-delete-confirm');
    await page.getByText('尚無平台遙測').waitFor();
  });

  it('is not offered to a user', async () => {
    const user = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId, fea: ['1', '4', '12'] });
    const { page: userPage } = await newPage(browser, server.httpUrl, 'en');
    await login(userPage, user.email, TEST_PASSWORD, 'user');
    expect(await userPage.getByTestId('menu-platformTelemetry').count()).toBe(0);
    await userPage.goto('/platform-telemetry/instance');
    await userPage.waitForURL((url) => !url.pathname.startsWith('/platform-telemetry'));
    await userPage.close();
  });
});
