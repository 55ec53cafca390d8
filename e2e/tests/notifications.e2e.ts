/**
 * Alert subscriptions in Chromium
 * against the real server: a user sets its subscription on the device page (app-rules tab), a vendor on the
 * project's notification tab; both survive a reload and are what the API answers. The LINE switch is disabled with
 * a hint until the account has a LINE link, and enabled once it has one.
 */
import { notificationPaths, type TDeviceSubscription, type TSubscription } from '@tessera/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineAccountLinks } from '@tessera/server';
import {
  authorise,
  buildDeviceProject,
  type TBuiltProject,
  buildUser,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
} from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('alert subscriptions in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let project: TBuiltProject;
  let userPage: Page;
  let vendorPage: Page;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    await authorise(server.ctx.db, project.devices[0].id, user.accountId);
    ({ page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(userPage, user.email, TEST_PASSWORD, 'user');
    ({ page: vendorPage } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(vendorPage, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const level = (page: Page, card: string, name: string) => page.getByTestId(card).getByRole('checkbox', { name, exact: true });

  it('a user subscribes on the device page; LINE stays disabled without a link; the choice survives a reload', async () => {
    const page = userPage;
    const tangramId = project.devices[0].tangramId;
    await page.goto(`/device/detail/${tangramId}/app-rules`);
    const card = page.getByTestId('device-subscription');
    await card.getByText('您目前不會收到此裝置的告警').waitFor();
    const line = page.getByTestId('device-subscription-channel-line');
    expect(await line.isDisabled()).toBe(true);
    await page.getByTestId('device-subscription-line-hint').getByText('請先在 LINE 推播頁面連結您的 LINE 帳號').waitFor();

    await level(page, 'device-subscription', '警報').check();
    await level(page, 'device-subscription', '預警').check();
    await page.getByTestId('device-subscription-channel-email').click();
    await page.getByTestId('device-subscription-save').click();
    await card.getByText('此裝置有自己的設定').waitFor();

    await page.reload();
    await card.getByText('此裝置有自己的設定').waitFor();
    expect(await level(page, 'device-subscription', '警報').isChecked()).toBe(true);
    expect(await level(page, 'device-subscription', '預警').isChecked()).toBe(true);
    expect(await level(page, 'device-subscription', '提醒').isChecked()).toBe(false);
    expect(await page.getByTestId('device-subscription-channel-email').isChecked()).toBe(true);
    expect(await line.isDisabled()).toBe(true);
    await snap(page, 'notifications-device-user');
    const saved = await server.api<TDeviceSubscription>('GET', notificationPaths.device(tangramId), { token: user.token });
    expect(saved.body).toMatchObject({ saved: true, levels: ['early_warning', 'alert'], channels: ['email'] });
  });

  it('turns the LINE switch on once the account has a LINE link', async () => {
    await server.ctx.db
      .insert(lineAccountLinks)
      .values({ accountId: user.accountId, tenantId: vendor.tenantId, lineUserId: `U${'1'.repeat(32)}`, linkedAt: Date.now() });
    const page = userPage;
    await page.goto(`/device/detail/${project.devices[0].tangramId}/app-rules`);
    const line = page.getByTestId('device-subscription-channel-line');
    await expect.poll(() => line.isDisabled()).toBe(false);
    expect(await page.getByTestId('device-subscription-line-hint').count()).toBe(0);
    await line.click();
    await page.getByTestId('device-subscription-save').click();
    await expect
      .poll(
        async () =>
          (await server.api<TDeviceSubscription>('GET', notificationPaths.device(project.devices[0].tangramId), { token: user.token })).body
            .channels,
      )
      .toEqual(['email', 'line']);
  });

  it("a vendor subscribes on the project's notification tab; the device page then follows it", async () => {
    const page = vendorPage;
    await page.goto(`/project/detail/${project.projectId}/notification`);
    const card = page.getByTestId('project-subscription');
    await card.waitFor();
    expect(await page.getByTestId('project-subscription-channel-line').isDisabled()).toBe(true);
    await level(page, 'project-subscription', '提醒').check();
    await page.getByTestId('project-subscription-channel-email').click();
    await page.getByTestId('project-subscription-save').click();
    await expect
      .poll(
        async () =>
          (await server.api<TSubscription>('GET', notificationPaths.project(project.projectId), { token: vendor.token })).body.levels,
      )
      .toEqual(['remind']);

    await page.reload();
    await card.waitFor();
    await expect.poll(() => level(page, 'project-subscription', '提醒').isChecked()).toBe(true);
    expect(await level(page, 'project-subscription', '警報').isChecked()).toBe(false);
    expect(await page.getByTestId('project-subscription-channel-email').isChecked()).toBe(true);
    await snap(page, 'notifications-project-vendor');

    await page.goto(`/device/detail/${project.devices[1].tangramId}/app-rules`);
    await page.getByTestId('device-subscription-state').getByText('目前沿用您的專案設定').waitFor();
    expect(await page.getByTestId('device-subscription-state').textContent()).toContain('提醒 · 電子郵件');
    expect(await level(page, 'device-subscription', '提醒').isChecked()).toBe(true);
  });
});
