/**
 * Products in Chromium (spec §2 product, §5 image ≤ 2 MB, §7 products, classes, image/upload, product functions,
 * §8 "image over 2MB"): create a product with a real PNG uploaded from disk (shown back from the server), the
 * client-side 2 MB refusal, edit, the product sum, classes (create; a class in use refused with the server's
 * message), product functions, and delete with confirmation (refused while a project uses the product).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_IMAGE_BYTES, paths, type TProduct, type TProductFunctionsView } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import productsZh from '../../apps/web/src/features/products/locales/zh-TW.json' with { type: 'json' };
import { makePng, moduleId, buildVendor, TEST_PASSWORD, type TBuiltAccount } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage } from '../support/browser.js';
import { confirmDialog, login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const zh = productsZh.products;

describe('products in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  const dir = mkdtempSync(join(tmpdir(), 'tessera-products-'));
  const pngPath = join(dir, 'pump.png');
  const png = makePng({ width: 32, height: 24, rgb: [20, 120, 220] });
  const hugePath = join(dir, 'huge.png');

  beforeAll(async () => {
    writeFileSync(pngPath, png);
    writeFileSync(hugePath, makePng({ totalBytes: MAX_IMAGE_BYTES + 1 }));
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    ({ page } = await newPage(browser, server.httpUrl));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const row = (text: string) => page.locator('[data-testid^="product-row-"]').filter({ hasText: text });
  const productNamed = async (name: string) =>
    (await server.api<{ data: TProduct[] }>('GET', `${paths.products}?q=${encodeURIComponent(name)}`, { token: vendor.token })).body
      .data[0];
  const closeDrawer = async () => {
    await page.locator('.ant-drawer-close').click();
    await page.locator('.ant-drawer-content').waitFor({ state: 'hidden' });
  };
  const imageInput = () => page.locator('[data-testid="product-image-field"] input[type="file"]');

  it('creates a product with a PNG uploaded from disk; the list shows the image and the sum', async () => {
    await page.goto('/product/list');
    await page.getByText(zh.empty).waitFor();
    await page.getByTestId('product-create').first().click();
    await page.getByTestId('product-name').fill('智慧水泵');
    await page.getByTestId('product-model').fill('WP-1');
    await page.getByTestId('product-number').fill('PN-100');

    await imageInput().setInputFiles(hugePath);
    await page.getByText(zh.imageTooLarge).waitFor();
    expect(await page.getByTestId('product-image-preview').count()).toBe(0);

    await imageInput().setInputFiles(pngPath);
    await page.getByTestId('product-image-preview').waitFor();
    await page.getByTestId('product-submit').click();
    await page.getByTestId('product-name').waitFor({ state: 'detached' });

    const img = row('智慧水泵').locator('img');
    await img.waitFor();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(32);
    const product = await productNamed('智慧水泵');
    const served = await fetch(`${server.httpUrl}${product.image_url}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    await expect.poll(() => page.getByTestId('product-sum').textContent()).toContain('1');
  });

  it('edits the product', async () => {
    const product = await productNamed('智慧水泵');
    await page.getByTestId(`product-edit-${product.id}`).click();
    await expect.poll(() => page.getByTestId('product-name').inputValue()).toBe('智慧水泵');
    await page.getByTestId('product-name').fill('智慧水泵二代');
    await page.getByTestId('product-model').fill('WP-2');
    await page.getByTestId('product-submit').click();
    await page.getByTestId('product-name').waitFor({ state: 'detached' });
    await row('智慧水泵二代').filter({ hasText: 'WP-2' }).waitFor();
    expect((await productNamed('智慧水泵二代')).image_url).toBe(product.image_url);
  });

  it('creates a class, puts the product in it, and refuses to delete the class in use with the server message', async () => {
    await page.getByTestId('product-classes').click();
    await page.getByText(zh.classes.empty).waitFor();
    await page.getByTestId('class-create').click();
    await page.getByTestId('class-name').fill('泵浦類');
    await page.getByTestId('class-submit').click();
    await page.locator('[data-testid^="class-row-"]').filter({ hasText: '泵浦類' }).waitFor();
    await closeDrawer();

    const product = await productNamed('智慧水泵二代');
    await page.getByTestId(`product-edit-${product.id}`).click();
    await pickOption(page, 'product-class', '泵浦類');
    await page.getByTestId('product-submit').click();
    await page.getByTestId('product-name').waitFor({ state: 'detached' });
    await row('智慧水泵二代').filter({ hasText: '泵浦類' }).waitFor();

    await page.getByTestId('product-classes').click();
    const classRow = page.locator('[data-testid^="class-row-"]').filter({ hasText: '泵浦類' });
    await classRow.locator('[data-testid^="class-delete-"]').click();
    await page.getByTestId('class-delete-confirm').click();
    await expect.poll(() => page.getByTestId('class-delete-error').textContent()).toMatch(/used by 1 product/);
    await page.locator('.ant-modal-confirm-error .ant-btn').click();
    expect(await classRow.count()).toBe(1);
    await closeDrawer();
  });

  it('switches a product function on', async () => {
    const product = await productNamed('智慧水泵二代');
    await page.getByTestId(`product-functions-${product.id}`).click();
    const ota = page.getByTestId('function-ota');
    await expect.poll(() => ota.getAttribute('aria-checked')).toBe('false');
    await ota.click();
    await page.getByTestId('functions-submit').click();
    await expect
      .poll(
        async () =>
          (await server.api<TProductFunctionsView>('GET', paths.productFunctions(product.id), { token: vendor.token })).body.functions.ota,
      )
      .toBe(true);
  });

  it('refuses to delete a product a project uses, then deletes it after confirmation once the project is gone', async () => {
    const product = await productNamed('智慧水泵二代');
    const body = { name: 'Line 1', product_id: product.id, tangram_product_id: await moduleId(server, vendor.token) };
    const project = await server.api<{ id: number }>('POST', paths.projects, { token: vendor.token, body });
    expect(project.status).toBe(201);

    await page.getByTestId(`product-delete-${product.id}`).click();
    await page.getByTestId('product-delete-confirm').click();
    await expect.poll(() => page.getByTestId('product-delete-error').textContent()).toMatch(/used by 1 project/);
    await page.locator('.ant-modal-confirm-error .ant-btn').click();
    expect(await row('智慧水泵二代').count()).toBe(1);

    expect((await server.api('DELETE', paths.project(project.body.id), { token: vendor.token })).status).toBe(204);
    await page.getByTestId(`product-delete-${product.id}`).click();
    await page.getByText(zh.deleteContent).waitFor();
    await confirmDialog(page, 'product-delete-confirm');
    await page.getByText(zh.empty).waitFor();
    await expect.poll(() => page.getByTestId('product-sum').textContent()).toContain('0');
  });
});
