/**
 * End to end in Chromium against the real server: the platform admin opens the accounts page from the header,
 * finds a vendor by search, acts as it after a confirmation — the console is the vendor's, under a banner saying so —
 * and comes back to its own session from the banner. A vendor has no accounts page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, buildVendor, TEST_PASSWORD, type TBuiltAccount, type TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { confirmDialog, login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('admin account switch: list, act as, come back (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let admin: TBuiltAccount;
  let vendor: TBuiltAccount;

  beforeAll(async () => {
    server = await startE2eServer();
    admin = await buildAccount(server, { level: 'admin' });
    vendor = await buildVendor(server);
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, admin.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('finds the vendor, acts as it after a confirmation, and the banner leads back', async () => {
    await page.getByTestId('header-accounts').click();
    await page.waitForURL(/\/admin\/accounts$/);
    await page.getByTestId('admin-search').locator('input').fill(vendor.email);
    await page.getByTestId('admin-search').locator('input').press('Enter');
    const row = page.getByTestId(`admin-account-row-${vendor.accountId}`);
    await row.waitFor();
    await expect.poll(() => page.locator('[data-testid^="admin-account-row-"]').count()).toBe(1);
    await page.getByTestId(`admin-switch-${vendor.accountId}`).click();
    await confirmDialog(page, 'admin-switch-confirm');

    await page.getByTestId('acting-as').filter({ hasText: vendor.email }).waitFor();
    expect(await page.getByTestId('header-email').textContent()).toBe(vendor.email);
    expect(await page.getByTestId('header-accounts').count()).toBe(0);
    await page.reload();
    await page.getByTestId('acting-as').waitFor();
    await snap(page, 'admin-acting-as');

    await page.getByTestId('acting-as-back').click();
    await page.waitForURL(/\/admin\/accounts$/);
    expect(await page.getByTestId('header-email').textContent()).toBe(admin.email);
    expect(await page.getByTestId('acting-as').count()).toBe(0);
  });

  it('is not a vendor’s page', async () => {
    const { page: vendorPage } = await newPage(browser, server.httpUrl, 'zh-TW');
    await login(vendorPage, vendor.email, TEST_PASSWORD, 'vendor');
    expect(await vendorPage.getByTestId('header-accounts').count()).toBe(0);
    await vendorPage.goto('/admin/accounts');
    await vendorPage.waitForURL((url) => !url.pathname.startsWith('/admin'));
    await vendorPage.close();
  });
});
