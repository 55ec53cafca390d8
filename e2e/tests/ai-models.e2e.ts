/**
 * The AI model registry in Chromium (feature code 13:1; docs/decisions/ai.md): from the empty list a vendor creates a
 * model in the drawer (framework, hardware module, input and output), uploads a revision of a few MB from disk with a
 * progress bar that moves and reaches 100 % (the upload is throttled so its progress shows), finds it listed with the
 * file's SHA-256, downloads it through the browser and gets the same bytes, sees a file over 200 MB refused before
 * sending, cancels an upload midway (nothing stored), and deletes the revision after a confirmation. Texts are the
 * zh-TW locale's.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  aiModelPaths,
  MAX_MODEL_BYTES,
  paths,
  type TAiModelPage,
  type TAiModelRevisionPage,
  type TTangramProductList,
} from '@tessera/contracts';
import { buildVendor, TEST_PASSWORD, type TBuiltAccount, type TTestServer } from '@tessera/server/testing';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import aiZh from '../../apps/web/src/features/ai-models/locales/zh-TW.json' with { type: 'json' };
import commonZh from '../../apps/web/src/i18n/locales/common.zh-TW.json' with { type: 'json' };
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { confirmDialog, login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const zh = aiZh.aiModels;
const FILE_BYTES = 6 * 1024 * 1024 + 123;
/** Upload throughput while a test watches the progress bar, in bytes per second (the model takes ~3 s). */
const THROTTLED_UPLOAD_BPS = 2 * 1024 * 1024;

describe('AI model registry in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let vendor: TBuiltAccount;
  const dir = mkdtempSync(join(tmpdir(), 'tessera-ai-models-'));
  const modelPath = join(dir, 'bearing-v1.tflite');
  const model = randomBytes(FILE_BYTES);
  const hugePath = join(dir, 'huge.onnx');

  beforeAll(async () => {
    writeFileSync(modelPath, model);
    // A sparse file one byte over the limit: the console refuses it by its size, nothing is read.
    writeFileSync(hugePath, '');
    truncateSync(hugePath, MAX_MODEL_BYTES + 1);
    server = await startE2eServer();
    vendor = await buildVendor(server);
    browser = await launchBrowser();
    let context: Awaited<ReturnType<typeof newPage>>['context'];
    ({ page, context } = await newPage(browser, server.httpUrl));
    cdp = await context.newCDPSession(page);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const throttleUploads = (bytesPerSecond: number) =>
    cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  const progress = () => page.getByTestId('revision-progress');
  const storedFiles = () =>
    readdirSync(join(server.ctx.config.blobDir, 'ai-models'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  const revisionsOfModel = async (id: number) =>
    (await server.api<TAiModelRevisionPage>('GET', aiModelPaths.revisions(id), { token: vendor.token })).body;

  it('creates a model from the empty list in the drawer', async () => {
    await page.getByTestId('menu-aiModel').click();
    await page.waitForURL('**/ai-model/list');
    expect(await page.getByTestId('menu-aiModel').textContent()).toBe(commonZh.menu.aiModel);
    await page.getByText(zh.empty).waitFor();

    const modules = (await server.api<TTangramProductList>('GET', paths.tangramProducts, { token: vendor.token })).body.data;
    await page.getByTestId('ai-model-create').first().click();
    await page.getByTestId('ai-model-name').fill('軸承故障分類');
    await pickOption(page, 'ai-model-framework', zh.frameworks.tflite);
    await page.locator('[data-testid="ai-model-module"] input').fill(modules[0].model_number);
    await pickOption(page, 'ai-model-module', modules[0].name);
    await page.getByTestId('ai-model-input').fill('float32[1, 1024]：振動頻譜（mm/s）');
    await page.getByTestId('ai-model-output').fill('float32[1, 4]：正常、內環、外環、滾珠');
    await page.getByTestId('ai-model-save').click();

    await page.waitForURL('**/ai-model/detail/*');
    expect(await page.getByTestId('ai-model-title').textContent()).toBe('軸承故障分類');
    await page.getByText(zh.frameworks.tflite).first().waitFor();
    await page.getByText(zh.revisions.empty).waitFor();
  });

  it('uploads a revision of a few MB with a progress bar that reaches 100 %, listed with the file’s SHA-256', async () => {
    await page.getByTestId('revision-file').setInputFiles(modelPath);
    await page.getByTestId('revision-file-name').waitFor();
    await page.getByTestId('revision-notes').fill('首版：1024 點 FFT');
    await throttleUploads(THROTTLED_UPLOAD_BPS);
    await page.getByTestId('revision-upload').click();

    const seen = new Set<number>();
    await expect
      .poll(
        async () => {
          const percent = Number(await progress().getAttribute('data-percent'));
          seen.add(percent);
          return progress().getAttribute('data-phase');
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe('done');
    await throttleUploads(-1);
    expect(
      [...seen].some((p) => p > 0 && p < 100),
      `progress seen: ${[...seen].join(', ')}`,
    ).toBe(true);
    expect(await progress().getAttribute('data-percent')).toBe('100');
    expect(await progress().locator('.ant-progress-indicator, .ant-progress-text').first().textContent()).toBe('100%');
    expect(await page.getByTestId('revision-upload-done').textContent()).toBe(zh.upload.done.replace('{{revision}}', '1'));

    const sha = createHash('sha256').update(model).digest('hex');
    const shaCell = page.getByTestId('revision-sha-1');
    await shaCell.waitFor();
    expect(await shaCell.getAttribute('data-sha256')).toBe(sha);
    expect(await page.getByTestId('revision-file-1').textContent()).toBe('bearing-v1.tflite');
    await page.getByText('首版：1024 點 FFT').waitFor();
    await snap(page, 'ai-model-revision');
  });

  it('downloads the revision through the browser with the same bytes', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('revision-download-1').click()]);
    expect(download.suggestedFilename()).toBe('bearing-v1.tflite');
    expect(readFileSync(await download.path()).equals(model)).toBe(true);
  });

  it('refuses a file over 200 MB before sending it', async () => {
    await page.getByTestId('revision-file').setInputFiles(hugePath);
    const refusal = page.getByTestId('revision-too-large');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(zh.upload.tooLarge.replace('{{max}}', '200 MB'));
    expect(await page.getByTestId('revision-upload').isDisabled()).toBe(true);
  });

  it('cancels an upload midway: nothing is stored', async () => {
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByTestId('revision-file').setInputFiles(modelPath);
    await throttleUploads(512 * 1024);
    await page.getByTestId('revision-upload').click();
    await expect.poll(async () => Number(await progress().getAttribute('data-percent'))).toBeGreaterThan(0);
    await page.getByTestId('revision-cancel').click();
    await page.getByText(zh.upload.cancelled).waitFor();
    await throttleUploads(-1);
    expect(await progress().count()).toBe(0);
    expect((await revisionsOfModel(id)).data.map((r) => r.revision)).toEqual([1]);
    // The server dropped the partial file when the request broke off: only revision 1's file is left.
    await expect.poll(() => storedFiles()).toBe(1);
  });

  it('deletes the revision after a confirmation', async () => {
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByTestId('revision-delete-1').click();
    await confirmDialog(page, 'revision-delete-confirm');
    await page.getByText(zh.revisions.empty).waitFor();
    expect((await revisionsOfModel(id)).total_items).toBe(0);
    const list = (await server.api<TAiModelPage>('GET', aiModelPaths.models, { token: vendor.token })).body;
    expect(list.data[0]).toMatchObject({ name: '軸承故障分類', revision_count: 0, latest_revision: null });
  });
});
