/**
 * Project detail "notification" and "system" tabs in Chromium: edit and save the notification list (with
 * its validation and the unsaved-changes prompt), send a test mail that a real SMTP server receives, read the fee
 * estimate's formula with hand-computed numbers, rename the project and copy it.
 */
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSensors } from '@tessera/server';
import {
  freePort,
  startSmtpSink,
  type TSmtpSink,
  createProjectVia,
  registerVia,
  buildVendor,
  TEST_PASSWORD,
} from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('project notification and system tabs in Chromium', () => {
  let server: TTestServer;
  let smtp: TSmtpSink;
  let browser: Browser;
  let page: Page;
  let projectId = 0;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    // A fixed MQTT port, so the provisioning details name the port the broker really listens on.
    server = await startE2eServer({ smtpUrl: smtp.url, mqttPort: await freePort() });
    browser = await launchBrowser();
    const vendor = await buildVendor(server);
    const project = await createProjectVia(server, vendor.token, '鍋爐房');
    projectId = project.id;
    // A known configuration: 2 sensors at 1 s and 10 s, one switched off, on 2 devices.
    await server.ctx.db.delete(projectSensors).where(eq(projectSensors.projectId, projectId));
    await server.ctx.db.insert(projectSensors).values([
      { projectId, key: 'temperature', name: 'T', uploadPeriodMs: 1_000 },
      { projectId, key: 'humidity', name: 'H', uploadPeriodMs: 10_000 },
      { projectId, key: 'noise', name: 'N', uploadPeriodMs: 0 },
    ]);
    for (const serial of ['AA01', 'AA02']) await registerVia(server, vendor.token, projectId, serial);
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
  });

  const emails = () => page.getByTestId('notification-email').allTextContents();

  it('edits the notification list with validation, asks before leaving unsaved, and saves', async () => {
    await page.goto(`/project/detail/${projectId}/notification`);
    await page.getByText('尚無通知信箱').waitFor();
    const input = page.getByTestId('notification-email-input');
    await input.fill('not-an-email');
    await page.getByTestId('notification-email-add').click();
    await page.getByText('請輸入有效的電子郵件').waitFor();
    await input.fill('Ops@Example.com');
    await page.getByTestId('notification-email-add').click();
    await input.fill('ops@example.COM');
    await input.press('Enter');
    await page.getByText('此電子郵件已在清單中').waitFor();
    await input.fill('night@example.com');
    await page.getByTestId('notification-email-add').click();
    await input.fill('gone@example.com');
    await page.getByTestId('notification-email-add').click();
    await page.getByTestId('notification-email-remove-gone@example.com').click();
    expect(await emails()).toEqual(['ops@example.com', 'night@example.com']);

    await page.getByTestId('project-tab-system').click();
    await page.getByTestId('unsaved-stay').click();
    expect(page.url()).toContain('/notification');

    await page.getByTestId('notification-save').click();
    await expect.poll(() => page.getByTestId('notification-save').isDisabled()).toBe(true);
    await page.reload();
    await expect.poll(emails).toEqual(['ops@example.com', 'night@example.com']);
  });

  it('sends a test mail that arrives over SMTP at every address', async () => {
    await page.getByTestId('notification-test').click();
    await expect.poll(() => page.getByTestId('notification-test-result').textContent()).toContain('2');
    for (const to of ['ops@example.com', 'night@example.com']) {
      const mail = await smtp.waitFor((m) => m.to.includes(to));
      expect(mail.subject).toBe('Tessera 測試通知：鍋爐房');
    }
  });

  it('shows provisioning and the fee estimate with its formula', async () => {
    await page.getByTestId('project-tab-system').click();
    await page.waitForURL(/\/system$/);
    expect(server.mqttPort).toBeGreaterThan(0);
    expect(await page.getByTestId('provisioning-url').textContent()).toContain(`mqtt://127.0.0.1:${server.mqttPort}`);
    // 2 devices × (2 592 000 + 259 200) = 5 702 400 messages; × NT$10/M = 57.02, × NT$6/M = 34.21; kept for ever (a
    // year): 2 × 95 040 points a day × (365 × 5 + 92) bytes + 2 × 2 × 534 360 rollup rows × 200 = 0.79187136 GB
    // × NT$3/GB-month = 2.38 → 93.61.
    await expect.poll(() => page.getByTestId('fee-messages').textContent()).toBe('5,702,400');
    expect(await page.getByTestId('fee-points').textContent()).toBe('5,702,400');
    expect(await page.getByTestId('fee-total').textContent()).toBe('NT$ 93.61');
    expect(await page.getByTestId('fee-formula').textContent()).toContain('2 台裝置');
    await snap(page, 'project-system-tab');
  });

  it('renames the project and copies it, landing on the copy', async () => {
    await page.getByTestId('system-name').fill('一號鍋爐房');
    await page.getByTestId('system-save').click();
    await expect.poll(() => page.getByTestId('system-save').isDisabled()).toBe(true);
    await page.locator('.ant-card-head-title').filter({ hasText: '一號鍋爐房' }).first().waitFor();

    await page.getByTestId('project-copy').click();
    await page.getByTestId('project-copy-name').fill('二號鍋爐房');
    await page.getByTestId('project-copy-ok').click();
    await page.waitForURL((url) => /\/project\/detail\/\d+\/system$/.test(url.pathname) && !url.pathname.includes(`/${projectId}/`));
    await expect.poll(() => page.getByTestId('system-name').inputValue()).toBe('二號鍋爐房');
    await expect.poll(() => page.getByTestId('fee-messages').textContent()).toBe('0');
  });
});
