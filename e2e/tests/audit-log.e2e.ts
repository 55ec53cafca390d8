/**
 * The audit log page in Chromium (docs/decisions/audit-log.md): a vendor's change shows up with who, what and the
 * changed field before and after; the filters narrow the table and live in the URL; the CSV holds what the filters
 * select; the empty state; the page in English; a user is sent away before the page loads; the platform admin sees
 * every tenant and filters by one; the page size, the page and the search live in the URL, so a reload shows the same
 * rows.
 */
import { readFileSync } from 'node:fs';
import { paths, type TProduct } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import auditEn from '../../apps/web/src/features/audit-log/locales/en.json' with { type: 'json' };
import auditZh from '../../apps/web/src/features/audit-log/locales/zh-TW.json' with { type: 'json' };
import {
  buildAccount,
  buildUser,
  buildVendor,
  createProductVia,
  parseCsv,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, newConsolePage, newPage } from '../support/browser.js';
import { login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const zh = auditZh.auditLog;
const en = auditEn.auditLog;

describe('audit log in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let other: TBuiltAccount;
  let product: TProduct;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    other = await buildVendor(server);
    product = await createProductVia(server, vendor.token, '審計水泵');
    const put = await server.api('PUT', paths.product(product.id), { token: vendor.token, body: { name: '審計水泵二代' } });
    expect(put.status).toBe(200);
    await createProductVia(server, other.token, 'Other tenant pump');
    ({ page } = await newPage(browser, server.httpUrl));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const rows = () => page.locator('[data-testid^="audit-row-"]');

  it('shows the change with who made it and the field before and after', async () => {
    await page.getByTestId('menu-auditLog').click();
    await page.waitForURL(/\/audit-log/);
    await page.getByRole('heading', { name: zh.title }).waitFor();
    const updated = rows().filter({ hasText: zh.action.update });
    await updated.first().waitFor();
    expect(await updated.count()).toBe(1);
    expect(await updated.first().textContent()).toContain(vendor.email);
    expect(await updated.first().textContent()).toContain(`${zh.entity.product} #${product.id}`);
    await updated.first().click();
    await page.getByTestId('audit-before-name').waitFor();
    expect(await page.getByTestId('audit-before-name').textContent()).toBe('審計水泵');
    expect(await page.getByTestId('audit-after-name').textContent()).toBe('審計水泵二代');
    // Another tenant's change is not there; the vendor's own login is.
    expect(await page.getByText('Other tenant pump').count()).toBe(0);
    expect(await rows().filter({ hasText: zh.action.login }).count()).toBeGreaterThan(0);
  });

  it('narrows by entity type, action and text; the URL keeps the filters; the CSV holds the selection', async () => {
    const before = await rows().count();
    await pickOption(page, 'audit-filter-entity', zh.entity.product);
    await page.waitForURL(/entity_type=product/);
    await expect.poll(() => rows().count()).toBe(2);
    await pickOption(page, 'audit-filter-action', zh.action.update);
    await page.waitForURL(/action=update/);
    await expect.poll(() => rows().count()).toBe(1);
    expect(before).toBeGreaterThan(1);

    const download = page.waitForEvent('download');
    await page.getByTestId('audit-export').click();
    const csv = parseCsv(readFileSync(await (await download).path(), 'utf8'));
    expect(csv).toHaveLength(1);
    expect(csv[0]).toMatchObject({ entity_type: 'product', entity_id: String(product.id), action: 'update', actor_email: vendor.email });
    expect(JSON.parse(csv[0].changes)).toEqual({ name: { before: '審計水泵', after: '審計水泵二代' } });

    await page.getByTestId('audit-filter-text').locator('input').fill('沒有這個字');
    await page.getByTestId('audit-filter-text').locator('input').press('Enter');
    await page.getByText(zh.empty).waitFor();
    expect(await rows().count()).toBe(0);
  });

  it('speaks English', async () => {
    const english = await newConsolePage(browser, server.httpUrl, 'en');
    await login(english.page, vendor.email, TEST_PASSWORD, 'vendor');
    await english.page.goto(`/audit-log?entity_type=product&action=update`);
    await english.page.getByRole('heading', { name: en.title }).waitFor();
    const row = english.page.locator('[data-testid^="audit-row-"]').first();
    await row.waitFor();
    expect(await row.textContent()).toContain(en.action.update);
    await row.click();
    await english.page.getByRole('columnheader', { name: en.before }).waitFor();
    await english.page.getByText(en.export).waitFor();
    await english.context.close();
  });

  it('sends a user away before the page loads, and has no menu entry for them', async () => {
    const user = await buildUser(server, vendor.tenantId);
    const { page: userPage, context } = await newPage(browser, server.httpUrl);
    await login(userPage, user.email, TEST_PASSWORD, 'user');
    await userPage.getByTestId('side-menu').waitFor();
    expect(await userPage.getByTestId('menu-auditLog').count()).toBe(0);
    await userPage.goto('/audit-log');
    await userPage.waitForURL((url) => !url.pathname.startsWith('/audit-log'));
    expect((await server.api('GET', paths.auditLog, { token: user.token })).status).toBe(403);
    await context.close();
  });

  it('shows the platform admin every tenant, narrowed by tenant id', async () => {
    const admin = await buildAccount(server, { level: 'admin', fea: ['*'] });
    const { page: adminPage, context } = await newPage(browser, server.httpUrl);
    await login(adminPage, admin.email, TEST_PASSWORD, 'vendor');
    await adminPage.goto('/audit-log?entity_type=product&action=create');
    const adminRows = adminPage.locator('[data-testid^="audit-row-"]');
    await expect.poll(() => adminRows.count()).toBe(2);
    await adminPage.getByTestId('audit-filter-tenant').fill(String(other.tenantId));
    await adminPage.getByTestId('audit-filter-tenant').press('Tab');
    await expect.poll(() => adminRows.count()).toBe(1);
    expect(await adminRows.first().textContent()).toContain(other.email);
    await context.close();
  });

  it('keeps the page size, the page and the search in the URL; a reload shows the same rows', async () => {
    for (let i = 0; i < 11; i += 1) await createProductVia(server, vendor.token, `審計分頁 ${i}`);
    await page.goto('/audit-log?entity_type=product&action=create');
    await expect.poll(() => rows().count()).toBe(12);

    await page.locator('.ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: /^10\b/ }).click();
    await page.waitForURL((url) => url.searchParams.get('limit') === '10');
    await expect.poll(() => rows().count()).toBe(10);
    await page.locator('.ant-pagination-item-2').click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await expect.poll(() => rows().count()).toBe(2);
    const second = await rows().allTextContents();
    await page.reload();
    await expect.poll(() => rows().allTextContents()).toEqual(second);

    // A new search goes back to the first page and stays in the box after a reload.
    await page.getByTestId('audit-filter-text').locator('input').fill('審計分頁 3');
    await page.getByTestId('audit-filter-text').locator('input').press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === '審計分頁 3' && !url.searchParams.has('page'));
    await expect.poll(() => rows().count()).toBe(1);
    await page.reload();
    await expect.poll(() => rows().count()).toBe(1);
    expect(await page.getByTestId('audit-filter-text').locator('input').inputValue()).toBe('審計分頁 3');
    await rows().first().click();
    await page.getByTestId('audit-after-name').waitFor();
    expect(await page.getByTestId('audit-after-name').textContent()).toBe('審計分頁 3');
  });
});
