/**
 * The vendor's catalogue screens in Chromium (spec §2 product, project, device routes; §5 name limit; §3 lists):
 * product list empty state, create and search, a too-long name refused in the form; project list → project
 * detail → register devices (secret shown once) → the project's and the global device list, searchable; and the
 * English labels of these pages.
 */
import { NAME_MAX } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import commonEn from '../../apps/web/src/i18n/locales/common.en.json' with { type: 'json' };
import commonZh from '../../apps/web/src/i18n/locales/common.zh-TW.json' with { type: 'json' };
import devicesEn from '../../apps/web/src/features/devices/locales/en.json' with { type: 'json' };
import devicesZh from '../../apps/web/src/features/devices/locales/zh-TW.json' with { type: 'json' };
import productsEn from '../../apps/web/src/features/products/locales/en.json' with { type: 'json' };
import productsZh from '../../apps/web/src/features/products/locales/zh-TW.json' with { type: 'json' };
import projectsEn from '../../apps/web/src/features/projects/locales/en.json' with { type: 'json' };
import projectsZh from '../../apps/web/src/features/projects/locales/zh-TW.json' with { type: 'json' };
import { buildVendor, TEST_PASSWORD } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const rows = (page: Page, prefix: string) => page.locator(`[data-testid^="${prefix}-row-"]`);
/** Types into an antd Input.Search (the test id is on its wrapper) and presses Enter. */
async function search(page: Page, testId: string, text: string): Promise<void> {
  const input = page.getByTestId(testId).locator('input');
  await input.fill(text);
  await input.press('Enter');
}

describe('catalogue screens in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  const devices: { name: string; tangramId: string }[] = [];

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    const { email } = await buildVendor(server);
    ({ page } = await newPage(browser, server.httpUrl));
    await login(page, email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function createProduct(name: string, model: string, number: string): Promise<void> {
    await page.getByTestId('product-create').first().click();
    await page.getByTestId('product-name').fill(name);
    await page.getByTestId('product-model').fill(model);
    await page.getByTestId('product-number').fill(number);
    await page.getByTestId('product-submit').click();
    await page.getByTestId('product-name').waitFor({ state: 'detached' });
  }

  it('shows the empty product list, creates two products and filters them by search', async () => {
    await page.goto('/product/list');
    await page.getByText(productsZh.products.empty).waitFor();
    await createProduct('智慧馬達', 'SM-1', 'PN-0001');
    await createProduct('環境感測器', 'ENV-2', 'PN-0002');
    await expect.poll(() => rows(page, 'product').count()).toBe(2);

    await search(page, 'product-search', '馬達');
    await expect.poll(() => rows(page, 'product').allTextContents()).toEqual([expect.stringContaining('智慧馬達')]);
    await search(page, 'product-search', 'ENV');
    await expect.poll(() => rows(page, 'product').allTextContents()).toEqual([expect.stringContaining('環境感測器')]);
    await search(page, 'product-search', 'no-such-product');
    await page.getByText(productsZh.products.noMatch).waitFor();
    expect(await rows(page, 'product').count()).toBe(0);
    await search(page, 'product-search', '');
    await expect.poll(() => rows(page, 'product').count()).toBe(2);
  });

  it(`refuses a product name of ${NAME_MAX + 1} characters in the form and creates nothing`, async () => {
    await page.getByTestId('product-create').first().click();
    await page.getByTestId('product-name').fill('馬'.repeat(NAME_MAX + 1));
    await page.getByTestId('product-model').fill('SM-9');
    await page.getByTestId('product-number').fill('PN-0009');
    await page.getByTestId('product-submit').click();
    const limit = commonZh.validation.max.replace('{{max}}', String(NAME_MAX));
    await page.locator('.ant-form-item-explain-error').filter({ hasText: limit }).waitFor();
    expect(await page.getByTestId('product-name').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('product-name').waitFor({ state: 'detached' });
    await page.reload();
    await expect.poll(() => rows(page, 'product').count()).toBe(2);
    expect(await page.getByText('SM-9').count()).toBe(0);
  });

  it('goes from the project list to a project and registers devices, each secret shown once', async () => {
    await page.getByTestId('menu-project').click();
    await page.waitForURL(/\/project\/list/);
    await page.getByText(projectsZh.projects.empty).waitFor();
    await page.getByTestId('project-create').first().click();
    await page.getByTestId('project-name').fill('一廠產線');
    await pickOption(page, 'project-product', '智慧馬達');
    await pickOption(page, 'project-module', 'Environment');
    await page.getByTestId('project-submit').click();
    await page.waitForURL(/\/project\/detail\/\d+/);

    await page.getByTestId('menu-project').click();
    await page.waitForURL(/\/project\/list/);
    await page.locator('[data-testid^="project-link-"]').filter({ hasText: '一廠產線' }).click();
    await page.waitForURL(/\/project\/detail\/\d+\/devices$/);
    await page.getByText(projectsZh.projects.devices.empty).waitFor();

    for (const [serial, name] of [
      ['a0001', '馬達一號'],
      ['a0002', '風扇二號'],
    ]) {
      await page.getByTestId('device-register').click();
      await page.getByTestId('device-serial').fill(serial);
      await page.getByTestId('device-name').fill(name);
      await page.getByTestId('device-register-submit').click();
      const tangramId = ((await page.getByTestId('device-tangram-id').textContent()) ?? '').trim();
      const secret = ((await page.getByTestId('device-secret').textContent()) ?? '').trim();
      expect(tangramId).toMatch(/^[0-9A-F]{30}$/);
      expect(tangramId.endsWith(serial.toUpperCase())).toBe(true);
      expect(secret.length).toBeGreaterThanOrEqual(40);
      await page.getByTestId('device-secret-close').click();
      await page.getByTestId('device-secret').waitFor({ state: 'detached' });
      await rows(page, 'project-device').filter({ hasText: name }).waitFor();
      expect(await page.content()).not.toContain(secret);
      devices.push({ name, tangramId });
    }
    await expect.poll(() => rows(page, 'project-device').count()).toBe(2);
    await snap(page, 'catalogue-project-devices');
  });

  it('lists the registered devices in /device/list, finds one by name and keeps the search in the URL', async () => {
    await page.getByTestId('menu-device').click();
    await page.waitForURL(/\/device\/list/);
    await expect.poll(() => rows(page, 'device').count()).toBe(2);
    for (const d of devices) expect(await page.getByTestId(`device-row-${d.tangramId}`).textContent()).toContain('一廠產線');

    await search(page, 'device-search', '風扇');
    await page.waitForURL(/[?&]q=/);
    await expect.poll(() => rows(page, 'device').allTextContents()).toEqual([expect.stringContaining('風扇二號')]);
    // The search lives in the URL: a reload keeps it.
    await page.reload();
    await expect.poll(() => rows(page, 'device').allTextContents()).toEqual([expect.stringContaining('風扇二號')]);
    expect(await page.getByTestId('device-search').locator('input').inputValue()).toBe('風扇');
    // A search that finds nothing says so; going back shows the earlier search, in the box too.
    await search(page, 'device-search', '沒有這台');
    await page.getByText(devicesZh.devices.list.noMatch).waitFor();
    await page.goBack();
    await expect.poll(() => rows(page, 'device').allTextContents()).toEqual([expect.stringContaining('風扇二號')]);
    expect(await page.getByTestId('device-search').locator('input').inputValue()).toBe('風扇');
    await page.getByTestId(`device-row-${devices[1].tangramId}`).click();
    await page.waitForURL(new RegExp(`/device/detail/${devices[1].tangramId}/telemetry-status$`));
    expect(await page.getByTestId('device-name').textContent()).toBe('風扇二號');
  });

  it('shows English labels on these pages after the language switch', async () => {
    await page.goto('/device/list');
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-en').click();
    await page.getByRole('heading', { name: devicesEn.devices.list.title }).waitFor();
    expect(await page.getByTestId('menu-product').textContent()).toBe(commonEn.menu.product);
    expect(await page.getByTestId('menu-project').textContent()).toBe(commonEn.menu.project);
    expect(await page.getByTestId('device-search').locator('input').getAttribute('placeholder')).toBe(
      devicesEn.devices.list.searchPlaceholder,
    );

    await page.getByTestId('menu-product').click();
    await page.waitForURL(/\/product\/list/);
    await page.getByRole('main').getByText(productsEn.products.title, { exact: true }).waitFor();
    await page.getByRole('button', { name: productsEn.products.create }).first().waitFor();

    await page.getByTestId('menu-project').click();
    await page.waitForURL(/\/project\/list/);
    await page.getByRole('main').getByText(projectsEn.projects.title, { exact: true }).waitFor();
    await page.locator('[data-testid^="project-link-"]').first().click();
    await page.getByTestId('project-tab-devices').filter({ hasText: projectsEn.projects.tabs.devices }).waitFor();
    await page.getByRole('button', { name: projectsEn.projects.devices.register }).waitFor();
    await snap(page, 'catalogue-english');
  });
});
