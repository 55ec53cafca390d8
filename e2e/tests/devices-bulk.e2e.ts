/**
 * The project's devices tab extras in Chromium: bulk registration from a pasted list (with the preview's per-line
 * problems and the server's "already registered" answer) and from a CSV file, the one-time secrets downloaded as CSV
 * and checked against the stored hashes, inline rename and nickname (persisted, bound refused), the §8 update-failure
 * dialog with the server's message, and the device authorisation method changed from the tab.
 */
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { NAME_SHORT_MAX } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, projects } from '@tessera/server';
import { createProjectVia, registerVia, buildVendor, TEST_PASSWORD } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('devices tab: bulk registration, inline edits, authorisation method (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let projectId = 0;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    const vendor = await buildVendor(server);
    projectId = (await createProjectVia(server, vendor.token, '二廠')).id;
    await registerVia(server, vendor.token, projectId, 'A0');
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/project/detail/${projectId}/devices`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const rowsOfProject = () => server.ctx.db.select().from(devices).where(eq(devices.projectId, projectId));
  const lineProblem = (row: number) => page.getByTestId(`bulk-line-problem-${row}`).textContent();

  it('pastes a list, sees per-line problems and the server’s answer, registers and downloads the secrets once', async () => {
    await page.getByTestId('device-bulk-register').click();
    await page.getByTestId('bulk-paste').fill('A1\nA2, a1\nXYZ\n00a0');
    await expect.poll(() => page.getByTestId('bulk-summary').textContent()).toBe('共 5 行，2 行有問題');
    expect(await lineProblem(3)).toContain('與第 1 行重複');
    expect(await lineProblem(4)).toContain('只能輸入十六進位數字');
    expect(await page.getByTestId('bulk-submit').isDisabled()).toBe(true);

    await page.getByTestId('bulk-drop-problems').click();
    await expect.poll(() => page.getByTestId('bulk-summary').textContent()).toBe('共 3 行，0 行有問題');
    await page.getByTestId('bulk-submit').click();
    // All or nothing: 00A0 is registered already, so the server refuses and names that line; nothing is written.
    await expect.poll(() => lineProblem(5)).toContain('已註冊');
    expect(await rowsOfProject()).toHaveLength(1);
    await snap(page, 'devices-bulk-refused');

    await page.getByTestId('bulk-drop-problems').click();
    await page.getByTestId('bulk-submit').click();
    await page.getByTestId('bulk-secrets-warning').waitFor();
    expect(await page.getByTestId('bulk-secret').count()).toBe(2);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bulk-secrets-download').click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^devices-${projectId}-\\d{8}-\\d{6}\\.csv$`));
    const csv = await readFile(await download.path(), 'utf8');
    const [header, ...rows] = csv.trim().split('\r\n');
    expect(header).toBe('tangram_id,serial_number,secret');
    expect(rows.map((r) => r.split(',')[1])).toEqual(['0000000000A1', '0000000000A2']);
    const stored = await rowsOfProject();
    for (const row of rows) {
      const [tangramId, serial, secret] = row.split(',');
      const device = stored.find((d) => d.tangramId === tangramId);
      expect(device?.serialNumber).toBe(serial);
      expect(device?.secretHash).toBe(sha256(secret));
    }
    // Downloaded: closing needs no confirmation, and the secrets are gone from the page.
    await page.getByTestId('bulk-secrets-close').click();
    await page.getByTestId('bulk-secrets-warning').waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(rows[0].split(',')[2]);
    await expect.poll(() => page.locator('[data-testid^="project-device-row-"]').count()).toBe(3);
  });

  it('registers from a CSV file with names; closing before downloading asks first', async () => {
    await page.getByTestId('device-bulk-register').click();
    await page.getByTestId('bulk-source-csv').click();
    const csv = '\uFEFFserial_number,name\r\nB1,泵浦一號\r\nB2,\r\n';
    await page
      .locator('[data-testid="bulk-csv"] input[type=file]')
      .setInputFiles({ name: 'pumps.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByTestId('bulk-summary').textContent()).toBe('共 2 行，0 行有問題');
    await page.getByTestId('bulk-submit').click();
    await page.getByTestId('bulk-secrets-warning').waitFor();
    await page.getByTestId('bulk-secrets-close').click();
    await page.getByTestId('bulk-secrets-close-confirm').click();
    await page.getByTestId('bulk-secrets-warning').waitFor({ state: 'detached' });
    const names = Object.fromEntries((await rowsOfProject()).map((d) => [d.serialNumber, d.name]));
    expect(names).toMatchObject({ '0000000000B1': '泵浦一號', '0000000000B2': '0000000000B2' });
  });

  it('renames a device and sets its nickname inline, refusing one past the bound; both persist after reload', async () => {
    const [device] = await server.ctx.db.select().from(devices).where(eq(devices.serialNumber, '0000000000B1'));
    await page.getByTestId(`device-name-${device.id}-edit`).click();
    await page.getByTestId(`device-name-${device.id}-input`).fill('一號泵浦');
    await page.getByTestId(`device-name-${device.id}-input`).press('Enter');
    await expect.poll(() => page.getByTestId(`device-name-${device.id}`).textContent()).toBe('一號泵浦');

    await page.getByTestId(`device-nickname-${device.id}-edit`).click();
    const nickname = page.getByTestId(`device-nickname-${device.id}-input`);
    await nickname.fill('暱'.repeat(NAME_SHORT_MAX + 1));
    expect(await page.getByTestId(`device-nickname-${device.id}-error`).textContent()).toBe(`最多 ${NAME_SHORT_MAX} 個字元`);
    expect(await page.getByTestId(`device-nickname-${device.id}-save`).isDisabled()).toBe(true);
    await nickname.fill('暱'.repeat(NAME_SHORT_MAX));
    await page.getByTestId(`device-nickname-${device.id}-save`).click();
    await expect.poll(() => page.getByTestId(`device-nickname-${device.id}`).textContent()).toBe('暱'.repeat(NAME_SHORT_MAX));

    await page.reload();
    await expect.poll(() => page.getByTestId(`device-name-${device.id}`).textContent()).toBe('一號泵浦');
    expect(await page.getByTestId(`device-nickname-${device.id}`).textContent()).toBe('暱'.repeat(NAME_SHORT_MAX));
    const [saved] = await server.ctx.db.select().from(devices).where(eq(devices.id, device.id));
    expect(saved).toMatchObject({ name: '一號泵浦', nickname: '暱'.repeat(NAME_SHORT_MAX) });
  });

  it('shows the update-failure dialog with the server’s message when the server refuses', async () => {
    const [device] = await server.ctx.db.select().from(devices).where(eq(devices.serialNumber, '0000000000B2'));
    await page.getByTestId(`device-name-${device.id}-edit`).click();
    // The device is removed behind the page's back (as from another session): the PUT answers 404.
    await server.ctx.db.delete(devices).where(eq(devices.id, device.id));
    await page.getByTestId(`device-name-${device.id}-input`).fill('不存在');
    await page.getByTestId(`device-name-${device.id}-save`).click();
    await expect.poll(() => page.getByTestId('error-dialog-message').textContent()).toBe('device not found');
    expect(await page.locator('.ant-modal-confirm-title').textContent()).toBe('裝置更新失敗');
    await page.getByTestId('error-dialog-confirm').click();
  });

  it('changes the device authorisation method from the tab; it persists', async () => {
    await pickOption(page, 'devices-authz-method', 'QR Code');
    await page.getByText('裝置授權方式已儲存').waitFor();
    const [p] = await server.ctx.db.select().from(projects).where(eq(projects.id, projectId));
    expect(p.deviceAuthzMethod).toBe('qrcode');
    await page.reload();
    await expect.poll(() => page.getByTestId('devices-authz-method').textContent()).toContain('QR Code');
    await snap(page, 'devices-tab');
  });
});
