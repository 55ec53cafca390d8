/**
 * End to end in Chromium with the keyboard alone (Tab, Shift+Tab, Enter, Space and typing; no mouse): a vendor logs
 * in, opens a device from the device list, and acknowledges an alert on the alerts dashboard.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDeviceProject,
  buildVendor,
  insertAlert,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, newPage } from '../support/browser.js';
import { startE2eServer } from '../support/server.js';

/** The test id of the focused element or of its nearest ancestor that has one ('' when none). */
const focusedTestId = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? '');

/**
 * Presses Tab until the focus is on (or inside) the element with test id `testId`.
 * @throws when it is not reached in `maxTabs` presses.
 */
async function tabTo(page: Page, testId: string, maxTabs = 60): Promise<void> {
  for (let i = 0; i < maxTabs; i += 1) {
    if ((await focusedTestId(page)) === testId) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${testId} (focus on ${await focusedTestId(page)})`);
}

describe('the console with the keyboard alone (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let built: TBuiltProject;
  let alertId = 0;

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    alertId = await insertAlert(server.ctx.db, built.devices[0].id, { message: 'temperature above 30' });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('logs in', async () => {
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    await tabTo(page, 'login-email');
    await page.keyboard.type(vendor.email);
    await tabTo(page, 'login-password');
    await page.keyboard.type(TEST_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  });

  it('opens a device from the device list', async () => {
    await page.goto('/device/list');
    const tangramId = built.devices[0].tangramId;
    await page.getByTestId(`device-row-${tangramId}`).waitFor();
    await tabTo(page, `device-row-${tangramId}`, 80);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.startsWith(`/device/detail/${tangramId}`));
    await page.getByTestId('device-name').waitFor();
  });

  it('acknowledges an alert on the alerts dashboard', async () => {
    await page.goto('/alerts/dashboard');
    await page.getByTestId(`alert-row-${alertId}`).waitFor();
    await tabTo(page, `alert-ack-${alertId}`, 80);
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId(`alert-ack-${alertId}`).count()).toBe(0);
  });
});
