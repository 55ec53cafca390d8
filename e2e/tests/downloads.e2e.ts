/**
 * End to end in Chromium against the real server: the download centre. A vendor makes an export of two devices
 * (300,000 points) from the empty list, follows its progress bar (rows done of rows total) to "packaging completed",
 * downloads the file through the browser and finds every row; cancels a second export while it packages; sees an
 * export of a device without data fail with its reason; deletes an export after a confirmation; exports the shown
 * range from a device's history chart. A user sees only their authorised device in the device picker.
 */
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceAuthz, downloadJobs } from '@tessera/server';
import {
  buildAccount,
  buildDeviceProject,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { confirmDialog, login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const POINTS_A = 200_000;
const POINTS_B = 100_000;
const HOUR = 3_600_000;

describe('download centre: export jobs with progress, download, cancel, failure (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let built: TBuiltProject;
  const end = Date.now();

  /** Stores `count` points of `key` for `deviceId`, four a second back from `end` (v1 = the point's index). */
  async function seed(deviceId: number, key: string, count: number): Promise<void> {
    // Hot rows name their key by its telemetry_keys id (added here on first sight, as the ingest writer does).
    await server.ctx.db.execute(sql`insert into telemetry_keys (key) values (${key}) on conflict (key) do nothing`);
    await server.ctx.db.execute(sql`insert into telemetry (device_id, key_id, ts, svc_recv_ts, v1)
      select ${deviceId}, (select id from telemetry_keys where key = ${key}), ${end}::bigint - i * 250, ${end}::bigint - i * 250, i
      from generate_series(0, ${count - 1}) as i`);
  }

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 4 });
    await seed(built.devices[0].id, 'temperature', POINTS_A);
    await seed(built.devices[1].id, 'temperature', POINTS_B);
    await server.ctx.db.execute(sql`insert into telemetry_latest (device_id, key, ts, svc_recv_ts, v1)
      values (${built.devices[0].id}, 'temperature', ${end}, ${end}, 0), (${built.devices[1].id}, 'temperature', ${end}, ${end}, 0)`);
    user = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId });
    await server.ctx.db.insert(deviceAuthz).values({ deviceId: built.devices[1].id, accountId: user.accountId });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Opens the new-export form and picks `tangramIds` by typing their last digits (the range stays the last 24 hours). */
  async function newExport(tangramIds: string[], name: string): Promise<void> {
    await page.getByTestId('export-new').first().click();
    await page.getByTestId('export-name').fill(name);
    for (const id of tangramIds) {
      await page.locator('[data-testid="export-devices"] input').fill(id.slice(-12));
      await pickOption(page, 'export-devices', id.slice(-12));
    }
    await page.getByTestId('export-name').click();
  }
  const rowOf = (name: string) => page.locator('[data-testid^="download-job-"]').filter({ hasText: name });
  const stateOf = async (name: string) => (await rowOf(name).locator('[data-testid^="job-state-"]').getAttribute('data-state')) ?? '';

  it('starts from the empty list, packages two devices with a progress bar, and downloads every row', async () => {
    await page.goto('/download');
    await page.getByText('尚無匯出').waitFor();
    await newExport([built.devices[0].tangramId, built.devices[1].tangramId], 'two-devices');
    await page.getByTestId('export-submit').click();
    await rowOf('two-devices').waitFor();

    // The progress bar shows while packaging: "counting rows", then rows done of the total. A partial count shows when
    // packaging outlasts the list's 1 s refresh; on PostgreSQL on a quick machine 300,000 rows are packaged sooner.
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const rows = rowOf('two-devices').locator('[data-testid^="job-rows-"]');
          if (await rows.isVisible()) seen.add((await rows.textContent()) ?? '');
          return stateOf('two-devices');
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe('packaging completed');
    expect(seen.size, 'the progress bar was shown while packaging').toBeGreaterThan(0);
    for (const text of seen) expect(text).toMatch(/^(計算筆數中…|[\d,]+ \/ 300,000 筆)$/);
    await snap(page, 'download-centre');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      rowOf('two-devices').locator('[data-testid^="job-download-"]').click(),
    ]);
    expect(download.suggestedFilename()).toBe('two-devices.csv');
    const records = parse(readFileSync(await download.path()), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(POINTS_A + POINTS_B);
    expect(records[0]).toMatchObject({ tangram_id: built.devices[0].tangramId, key: 'temperature', v1: String(POINTS_A - 1) });
    expect(records[POINTS_A - 1]).toMatchObject({ tangram_id: built.devices[0].tangramId, v1: '0', ts_ms: String(end) });
    expect(records[POINTS_A]).toMatchObject({ tangram_id: built.devices[1].tangramId, v1: String(POINTS_B - 1) });
  });

  it('cancels an export while it packages, and shows why an export without data failed', async () => {
    // An export still waiting for a packager (due in an hour): packaging on PGlite is too quick to catch by hand.
    await server.ctx.db.insert(downloadJobs).values({
      tenantId: vendor.tenantId,
      accountId: vendor.accountId,
      name: 'to-cancel',
      spec: {
        tangram_ids: [built.devices[3].tangramId],
        keys: [],
        start_ts: end - 3_600_000,
        end_ts: end,
        mode: 'raw',
        fn: 'avg',
        bucket_ms: 3_600_000,
        format: 'csv',
      },
      deviceIds: [built.devices[3].id],
      nextAttemptAt: Date.now() + 3_600_000,
    });
    await page.reload();
    const cancel = rowOf('to-cancel').locator('[data-testid^="job-cancel-"]');
    await cancel.click();
    await confirmDialog(page, 'job-cancel-confirm');
    await expect.poll(() => stateOf('to-cancel')).toBe('failed');
    expect(await rowOf('to-cancel').locator('[data-testid^="job-reason-"]').textContent()).toBe('已取消');

    await newExport([built.devices[2].tangramId], 'no-data');
    await page.getByTestId('export-submit').click();
    await expect.poll(() => stateOf('no-data')).toBe('failed');
    expect(await rowOf('no-data').locator('[data-testid^="job-reason-"]').textContent()).toBe('所選期間沒有資料');

    await rowOf('no-data').locator('[data-testid^="job-delete-"]').click();
    await confirmDialog(page, 'job-delete-confirm');
    await expect.poll(() => rowOf('no-data').count()).toBe(0);
  });

  it("exports the history chart's key and range from a device page", async () => {
    await page.goto(`/device/detail/${built.devices[1].tangramId}/history-chart`);
    await page.getByTestId('history-export').click();
    await page.getByTestId('export-name').fill('from-history');
    await page.getByTestId('export-submit').click();
    await page.getByTestId('history-export-open').click();
    await expect.poll(() => stateOf('from-history'), { timeout: 30_000 }).toBe('packaging completed');
    // Every point of the chart's last 24 hours: all of the device's.
    const [job] = await server.ctx.db.select().from(downloadJobs).where(eq(downloadJobs.name, 'from-history'));
    expect(job.spec.end_ts - job.spec.start_ts).toBe(24 * HOUR);
    const counted = await server.ctx.db.execute(sql`select count(*)::int as n from telemetry
        where device_id = ${built.devices[1].id} and ts between ${job.spec.start_ts} and ${job.spec.end_ts}`);
    const [{ n }] = (counted as unknown as { rows: { n: number }[] }).rows;
    expect(n).toBe(POINTS_B);
    expect(job.rowsDone).toBe(n);
    expect(await rowOf('from-history').textContent()).toContain(`${new Intl.NumberFormat('zh-TW').format(n)} 筆`);
  });

  it('offers a user only the devices authorised to them', async () => {
    const { page: userPage } = await newPage(browser, server.httpUrl, 'en');
    await login(userPage, user.email, TEST_PASSWORD, 'user');
    await userPage.goto('/download');
    await userPage.getByTestId('export-new').first().click();
    await userPage.getByTestId('export-devices').click();
    const options = userPage.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => options.count()).toBe(1);
    expect(await options.first().textContent()).toContain(built.devices[1].tangramId.slice(-12));
    await userPage.close();
  });
});
