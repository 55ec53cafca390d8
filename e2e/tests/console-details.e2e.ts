/**
 * End to end in Chromium: the small things that made the console look unfinished. `<html lang>` follows the
 * language; a device picker clears its typed search after a pick (the next search used to find nothing); a list says
 * it is empty only once it has loaded, not under its spinner; the machine roles' empty state speaks of machines, not
 * "this project"; the authorisation history is a link away from the authorisation page. (No 8 px body margin and the
 * dashboard's "layout saved" message: phone-layout.e2e.ts and dashboard.e2e.ts.)
 */
import { machineRolePaths } from '@tessera/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, buildVendor, TEST_PASSWORD, type TBuiltAccount, type TTestServer } from '@tessera/server/testing';
import { launchBrowser } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('finishing details of the console (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: server.httpUrl, locale: 'zh-TW', reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const htmlLang = () => page.evaluate(() => document.documentElement.lang);

  it('<html lang> follows the language, also after a reload', async () => {
    await page.goto('/device/list');
    await page.getByTestId('language-switch').waitFor();
    expect(await htmlLang()).toBe('zh-TW');
    await page.getByTestId('language-en').click();
    await expect.poll(htmlLang).toBe('en');
    await page.reload();
    await page.getByTestId('language-switch').waitFor();
    expect(await htmlLang()).toBe('en');
    await page.getByTestId('language-zh-TW').click();
    await expect.poll(htmlLang).toBe('zh-TW');
  });

  it('a device picker clears its typed search after a pick', async () => {
    await page.goto('/analytics');
    const picker = page.getByTestId('analytics-devices');
    const search = picker.locator('input');
    await picker.click();
    await search.pressSequentially('dev');
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
    await option.click();
    await expect.poll(() => search.inputValue()).toBe('');
    // The next search starts afresh: it finds devices (it used to append to "dev").
    await search.pressSequentially('dev');
    await expect.poll(() => page.locator('.ant-select-dropdown:visible .ant-select-item-option').count()).toBeGreaterThan(1);
  });

  it('a list says it is empty only once it has loaded; the machine roles speak of machines', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**${machineRolePaths.roles}?*`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/machine/roles');
    await page.locator('.ant-table-wrapper .ant-spin-spinning').waitFor();
    expect(await page.getByTestId('roles-empty').isVisible()).toBe(false);
    release();
    await page.getByTestId('roles-empty').waitFor();
    const text = await page.getByTestId('roles-empty').textContent();
    expect(text).toContain('機台');
    expect(text).not.toContain('此專案');
    await page.unroute(`**${machineRolePaths.roles}?*`);
  });

  it('the authorisation history is a link away from the authorisation page', async () => {
    await page.goto('/self-auth/devce-auth');
    await page.getByTestId('authz-history-link').click();
    await page.waitForURL((url) => url.pathname === '/self-auth/history');
    await page.getByTestId('authz-history').waitFor();
  });
});
