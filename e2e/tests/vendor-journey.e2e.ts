/**
 * A vendor's first journey in Chromium: logs in in zh-TW, creates a product and a project, registers a device, a real
 * MQTT client publishes as that device, the value appears live on telemetry-status, the history chart draws, and
 * the console switches to English.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVendor, TEST_PASSWORD } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login, pickOption, publishAsDevice } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('vendor journey in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendorEmail: string;
  let tangramId = '';
  let secret = '';

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendorEmail = (await buildVendor(server)).email;
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('logs in on the vendor login in Traditional Chinese', async () => {
    await page.goto('/product/list');
    await page.waitForURL(/\/login\?msg=token_out/);
    await login(page, vendorEmail, TEST_PASSWORD, 'vendor');
    // The login page opened fresh lands on the default page, the dashboard; the journey starts at the products.
    await page.waitForURL(/\/dashboard/);
    await page.getByTestId('menu-product').click();
    await page.waitForURL(/\/product\/list/);
    await expect.poll(() => page.getByTestId('menu-product').textContent()).toContain('產品管理');
    expect(await page.getByTestId('header-email').textContent()).toContain(vendorEmail);
  });

  it('creates a product', async () => {
    await page.getByTestId('product-create').first().click();
    await page.getByTestId('product-name').fill('智慧馬達');
    await page.getByTestId('product-model').fill('SM-1');
    await page.getByTestId('product-number').fill('PN-0001');
    await page.getByTestId('product-submit').click();
    await page.getByTestId('side-menu').waitFor();
    await page.getByText('智慧馬達').first().waitFor();
  });

  it('creates a project on a hardware module', async () => {
    await page.getByTestId('menu-project').click();
    await page.getByTestId('project-create').first().click();
    await page.waitForURL(/\/project\/new/);
    await page.getByTestId('project-name').fill('一廠產線');
    await pickOption(page, 'project-product', '智慧馬達');
    await pickOption(page, 'project-module', 'Environment');
    await page.getByTestId('project-submit').click();
    await page.waitForURL(/\/project\/detail\/\d+/);
  });

  it('registers a device and sees its secret once', async () => {
    await page.getByTestId('device-register').click();
    await page.getByTestId('device-serial').fill('e2e01');
    await page.getByTestId('device-name').fill('馬達一號');
    await page.getByTestId('device-register-submit').click();
    tangramId = ((await page.getByTestId('device-tangram-id').textContent()) ?? '').trim();
    secret = ((await page.getByTestId('device-secret').textContent()) ?? '').trim();
    expect(tangramId).toMatch(/^[0-9A-F]{30}$/);
    expect(tangramId.endsWith('0000000E2E01')).toBe(true);
    expect(secret.length).toBeGreaterThanOrEqual(40);
    await page.getByTestId('device-secret-close').click();
    await page.getByTestId('device-secret').waitFor({ state: 'detached' });
    await page.getByText('馬達一號').first().waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('shows a value published by a real MQTT client, then a new one live without reload', async () => {
    const now = Date.now();
    await publishAsDevice(server.mqttUrl, tangramId, secret, [
      { key: 'temperature', ts: now - 2 * 3_600_000, vs: [19] },
      { key: 'temperature', ts: now - 60_000, vs: [21.5] },
    ]);
    await page.goto(`/device/detail/${tangramId}/telemetry-status`);
    const value = page.getByTestId('telemetry-value-temperature');
    await expect.poll(() => value.textContent(), { timeout: 15_000 }).toContain('21.5');
    await expect.poll(() => page.getByTestId('live-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('connected');

    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));
    await publishAsDevice(server.mqttUrl, tangramId, secret, [{ key: 'temperature', ts: Date.now(), vs: [27.25] }]);
    await expect.poll(() => value.textContent(), { timeout: 15_000 }).toContain('27.25');
    expect(navigations).toEqual([]);
    await snap(page, 'vendor-telemetry-status');
  });

  it('draws the history chart', async () => {
    await page.getByTestId('tab-history-chart').click();
    await page.waitForURL(/history-chart/);
    await pickOption(page, 'history-key', 'Temperature');
    const chart = page.getByTestId('history-chart');
    await expect.poll(async () => Number(await chart.getAttribute('data-points')), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await snap(page, 'vendor-history-chart');
  });

  it('switches to English', async () => {
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-en').click();
    await expect.poll(() => page.getByTestId('menu-device').textContent()).toContain('Devices');
    await page.reload();
    await expect.poll(() => page.getByTestId('menu-device').textContent()).toContain('Devices');
  });
});
