/**
 * The project System tab's telemetry retention and disk use in Chromium, in zh-TW and en: three days of points
 * compressed by the storage job show as points stored and bytes on disk; a retention chosen in the form is saved and
 * answered by the API, and the fee estimate follows it. The platform admin sees the platform's disk use and the
 * storage job's run on /admin/storage, reached from the header.
 */
import { DAY_MS, storagePaths, type TFeeEstimate, settingsPaths, type TRetention } from '@tessera/contracts';
import { devices, projectSensors, runTelemetryStorage, writeIngestBatch, type TTelemetryRowIn } from '@tessera/server';
import { buildAccount, buildVendor, createProjectVia, registerVia, TEST_PASSWORD, type TTestServer } from '@tessera/server/testing';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newConsolePage, snap } from '../support/browser.js';
import { login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('telemetry retention and disk use on the project System tab in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: Awaited<ReturnType<typeof buildVendor>>;
  let projectId = 0;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    projectId = (await createProjectVia(server, vendor.token, '冷凍倉')).id;
    await server.ctx.db.delete(projectSensors).where(eq(projectSensors.projectId, projectId));
    await server.ctx.db.insert(projectSensors).values([{ projectId, key: 'temperature', name: 'T', uploadPeriodMs: 60_000 }]);
    await registerVia(server, vendor.token, projectId, 'CC01');
    const [device] = await server.ctx.db.select().from(devices).where(eq(devices.projectId, projectId));
    // A point a minute over three days that ended a week ago, then the storage job compresses them.
    const start = Math.floor(Date.now() / DAY_MS) * DAY_MS - 10 * DAY_MS;
    const rows: TTelemetryRowIn[] = [];
    for (let ts = start; ts < start + 3 * DAY_MS; ts += 60_000)
      rows.push({ deviceId: device.id, key: 'temperature', ts, svcRecvTs: ts + 80, v1: 20 + Math.sin(ts / 3_600_000), v2: null, v3: null });
    await writeIngestBatch(server.ctx.db, { telemetry: rows, status: [], rejected: [] });
    await runTelemetryStorage(server.ctx.database, { hotWindowMs: DAY_MS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (locale: string): Promise<Page> => {
    const { page } = await newConsolePage(browser, server.httpUrl, locale);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/project/detail/${projectId}/system`);
    return page;
  };

  it('shows points stored and bytes on disk in zh-TW, and saves a retention chosen in the form', async () => {
    const page = await open('zh-TW');
    await page.getByText('遙測資料磁碟用量').waitFor();
    await expect.poll(() => page.getByTestId('storage-points').textContent()).toBe((3 * 1_440).toLocaleString('en-US'));
    expect(await page.getByTestId('storage-raw-compressed').textContent()).toMatch(/KiB$/);
    expect(await page.getByTestId('storage-bytes-per-point').textContent()).toMatch(/^\d+\.\d$/);
    expect(await page.getByTestId('storage-growth').textContent()).toContain('1,440 個資料點');
    expect(await page.getByTestId('storage-last-expiry').textContent()).toBe('尚未執行（資料永久保存）');
    expect(await page.getByTestId('retention-raw_days').textContent()).toContain('永久保存');

    await pickOption(page, 'retention-raw_days', /^30 天$/);
    await pickOption(page, 'retention-rollup_1m_days', /^90 天$/);
    await page.getByTestId('retention-save').click();
    // The toast exactly: the storage card's "已儲存資料點" (points stored) holds the same words.
    await page.getByText('已儲存', { exact: true }).waitFor();
    const saved = await server.api<TRetention>('GET', storagePaths.retention(projectId), { token: vendor.token });
    expect(saved.body).toEqual({ raw_days: 30, rollup_1m_days: 90, rollup_1h_days: null });
    const fee = await server.api<TFeeEstimate>('GET', settingsPaths.feeEstimate(projectId), { token: vendor.token });
    expect(fee.body.storage).toMatchObject({ retention: saved.body, raw_points_kept: 30 * 1_440 });
    await expect.poll(() => page.getByTestId('fee-storage').textContent()).toContain('GB');
    await snap(page, 'project-system-storage-zh-TW');
    await page.context().close();
  });

  it('shows the same in English, with the retention saved', async () => {
    const page = await open('en');
    await page.getByText('Telemetry on disk').waitFor();
    await expect.poll(() => page.getByTestId('storage-points').textContent()).toBe('4,320');
    expect(await page.getByTestId('storage-growth').textContent()).toContain('1,440 points');
    expect(await page.getByText('Raw points, compressed').count()).toBe(1);
    expect(await page.getByTestId('retention-raw_days').textContent()).toContain('30 days');
    expect(await page.getByTestId('retention-rollup_1h_days').textContent()).toContain('For ever');
    await snap(page, 'project-system-storage-en');
    await page.context().close();
  });

  it('shows the platform admin the whole platform and the storage job’s run, from the header', async () => {
    const admin = await buildAccount(server, { level: 'admin' });
    const { page } = await newConsolePage(browser, server.httpUrl, 'en');
    await login(page, admin.email, TEST_PASSWORD, 'vendor');
    await page.getByTestId('header-storage').click();
    await page.getByText('Telemetry on disk, whole platform').waitFor();
    await expect.poll(() => page.getByTestId('storage-points').textContent()).toBe('4,320');
    const runs = page.locator('[data-testid^="admin-storage-run-"]');
    await expect.poll(() => runs.count()).toBeGreaterThanOrEqual(1);
    const rows = await Promise.all((await runs.all()).map((r) => r.locator('td').allTextContents()));
    // The run of beforeAll compressed the three days (the server's own runs, if any came since, found nothing to do):
    // 3 days, 4,320 points, nothing expired, completed.
    expect(rows.map((cells) => cells.slice(2))).toContainEqual(['3', '4,320', '0', '0', 'Completed']);
    await page.context().close();
  });
});
