/**
 * Deploying an AI model revision to devices in Chromium (docs/decisions/ai.md "Deploying to devices"; the device side
 * is the simulator, docs/protocol.md "AI models"): a vendor uploads a revision with its progress bar, deploys it to
 * four simulated devices picked in the drawer, and watches the rollout page: three reach 已安裝, the fourth — whose
 * download arrives corrupted — 失敗 with its reason; retry installs it; removing the rollout clears the devices' model;
 * a deployment to the whole project reaches every device. Texts are the zh-TW locale's.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiModelPaths, type TAiModel } from '@tessera/contracts';
import { startSimulator, type TSimulator } from '@tessera/device-sim';
import { projects } from '@tessera/server';
import {
  buildDeviceProject,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import aiZh from '../../apps/web/src/features/ai-models/locales/zh-TW.json' with { type: 'json' };
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { confirmDialog, login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const zh = aiZh.aiModels;

describe('AI model rollout to simulated devices in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let fleet: TBuiltProject;
  let sim: TSimulator;
  let model: TAiModel;
  const file = randomBytes(2 * 1024 * 1024 + 77);
  const dir = mkdtempSync(join(tmpdir(), 'tessera-rollout-'));
  const filePath = join(dir, 'anomaly-v1.onnx');

  beforeAll(async () => {
    writeFileSync(filePath, file);
    server = await startE2eServer();
    vendor = await buildVendor(server);
    fleet = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 4 });
    const [project] = await server.ctx.db.select().from(projects).where(eq(projects.id, fleet.projectId));
    const created = await server.api<TAiModel>('POST', aiModelPaths.models, {
      token: vendor.token,
      body: { name: '異常偵測', framework: 'onnx', tangram_product_id: project.tangramProductId },
    });
    model = created.body;
    // The fourth device's first download arrives corrupted (one byte flipped on the way).
    sim = await startSimulator({
      url: server.mqttUrl,
      devices: fleet.devices.map((d, i) => ({ ...d, keys: ['temperature'], ...(i === 3 ? { modelFault: 'corrupt-once' as const } : {}) })),
      rateHz: 0.2,
      statusPeriodMs: 60_000,
    });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await sim?.stop();
    await browser?.close();
    await server?.stop();
  });

  const deviceRow = (i: number) => page.locator(`[data-row-key="${fleet.devices[i].tangramId}"]`);
  const stateOf = (i: number) => deviceRow(i).locator('[data-state]').first().getAttribute('data-state');

  it('uploads a revision with its progress bar', async () => {
    await page.goto(`/ai-model/detail/${model.id}`);
    await page.getByTestId('rollouts-empty').waitFor();
    await page.getByTestId('revision-file').setInputFiles(filePath);
    await page.getByTestId('revision-upload').click();
    await expect.poll(() => page.getByTestId('revision-progress').getAttribute('data-phase'), { timeout: 30_000 }).toBe('done');
    expect(await page.getByTestId('revision-progress').getAttribute('data-percent')).toBe('100');
    await page.getByTestId('revision-deploy-1').waitFor();
  });

  it('deploys to four devices picked in the drawer: three install, the corrupted download fails with its reason', async () => {
    await page.getByTestId('revision-deploy-1').click();
    expect(await page.getByText(zh.deploy.title.replace('{{revision}}', '1')).count()).toBeGreaterThan(0);
    for (const d of fleet.devices) {
      await page.locator('[data-testid="deploy-devices"] input').fill(d.tangramId.slice(-12));
      await pickOption(page, 'deploy-devices', d.tangramId.slice(-12));
    }
    // A click beside the select closes its list, which covers the drawer's buttons.
    await page.getByTestId('deploy-revision').click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await page.getByTestId('deploy-submit').click();
    await page.waitForURL(/\/ai-model\/detail\/\d+\/rollouts\/\d+$/);
    expect(await page.getByTestId('rollout-title').textContent()).toBe(
      zh.rollout.title.replace('{{name}}', '異常偵測').replace('{{revision}}', '1'),
    );

    for (const i of [0, 1, 2]) await expect.poll(() => stateOf(i), { timeout: 30_000 }).toBe('installed');
    await expect.poll(() => stateOf(3), { timeout: 30_000 }).toBe('failed');
    for (const i of [0, 1, 2]) expect(await deviceRow(i).textContent()).toContain(zh.rolloutStates.installed);
    expect(await deviceRow(3).textContent()).toContain(zh.rolloutStates.failed);
    expect(await page.getByTestId(`rollout-device-reason-${fleet.devices[3].tangramId}`).textContent()).toContain('sha256 mismatch');
    const overall = page.getByTestId('rollout-progress');
    await expect.poll(() => overall.getAttribute('data-installed')).toBe('3');
    expect(await overall.getAttribute('data-failed')).toBe('1');
    // The devices hold exactly the uploaded file.
    const sha = await page.getByTestId('rollout-sha').getAttribute('data-sha256');
    for (const i of [0, 1, 2]) expect(sim.installedModel(fleet.devices[i].tangramId)?.sha256).toBe(sha);
    expect(sim.installedModel(fleet.devices[3].tangramId)).toBeNull();
    await snap(page, 'model-rollout-failed');
  });

  it('retries the failed device, which installs on its second attempt', async () => {
    expect(await page.getByTestId('rollout-retry').textContent()).toBe(zh.rollout.retry.replace('{{n}}', '1'));
    await page.getByTestId('rollout-retry').click();
    await page.getByText(zh.rollout.retried.replace('{{n}}', '1')).waitFor();
    await expect.poll(() => stateOf(3), { timeout: 30_000 }).toBe('installed');
    expect(sim.installedModel(fleet.devices[3].tangramId)?.attempt).toBe(2);
    await expect.poll(() => page.getByTestId('rollout-progress').getAttribute('data-installed')).toBe('4');
    expect(await page.getByTestId('rollout-retry').isDisabled()).toBe(true);
  });

  it('removes the rollout from the devices after a confirmation; then deploys to the whole project', async () => {
    await page.getByTestId('rollout-remove').click();
    await confirmDialog(page, 'rollout-remove-confirm');
    await page.waitForURL(`**/ai-model/detail/${model.id}`);
    await expect.poll(() => fleet.devices.map((d) => sim.installedModel(d.tangramId)).filter(Boolean).length, { timeout: 15_000 }).toBe(0);
    await page.getByTestId('rollouts-empty').waitFor();

    await page.getByTestId('revision-deploy-1').click();
    await page.getByTestId('deploy-target-project').click();
    await pickOption(page, 'deploy-project', /project/);
    await page.getByTestId('deploy-submit').click();
    await page.waitForURL(/\/rollouts\/\d+$/);
    await expect.poll(() => page.getByTestId('rollout-progress').getAttribute('data-installed'), { timeout: 30_000 }).toBe('4');
    await page.getByTestId('rollout-back').click();
    await page.waitForURL(`**/ai-model/detail/${model.id}`);
    await expect.poll(() => page.getByTestId('rollouts-card').textContent()).toContain(zh.rollouts.installedCount.replace('{{n}}', '4'));
  });
});
