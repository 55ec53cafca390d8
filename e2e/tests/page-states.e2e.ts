/**
 * End to end in Chromium: no error dialog a person did not cause (docs/decisions/console.md "Pages a role may not
 * open"). A page the role may not open is decided from the token before the page loads — the person lands on the
 * page the spec's guard names, no call is refused, no dialog opens; a record the account may not see (a project or
 * device of another company) is the shared not-found state at once, with no tab or button and a back button that
 * leads somewhere else. The platform admin acting as a vendor gets no 403 dialog.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAccount,
  buildDeviceProject,
  buildUser,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, snap } from '../support/browser.js';
import { confirmDialog, login } from '../support/console.js';
import { recordErrorDialogs, takeErrorDialogs } from '../support/dialogs.js';
import { startE2eServer } from '../support/server.js';

describe('pages a role may not open, and records it may not see (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let admin: TBuiltAccount;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let otherVendor: TBuiltAccount;
  let built: TBuiltProject;

  /** A logged-in page of `account` whose error dialogs are recorded, and the API calls it answered with 403. */
  async function openAs(account: TBuiltAccount, role: 'vendor' | 'user') {
    const context: BrowserContext = await browser.newContext({ baseURL: server.httpUrl, locale: 'zh-TW', reducedMotion: 'reduce' });
    await recordErrorDialogs(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 403) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    await login(page, account.email, TEST_PASSWORD, role);
    return { context, page, refused };
  }

  /** Waits until the page has no request in flight for half a second (what it does after a page opens is done). */
  const settle = (page: Page) => page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);

  beforeAll(async () => {
    server = await startE2eServer();
    admin = await buildAccount(server, { level: 'admin' });
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    otherVendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the admin acting as a vendor gets the vendor’s console and no 403 dialog', async () => {
    const { context, page, refused } = await openAs(admin, 'vendor');
    await page.goto('/admin/accounts');
    await page.getByTestId(`admin-switch-${vendor.accountId}`).click();
    await confirmDialog(page, 'admin-switch-confirm');
    await page.getByTestId('acting-as').filter({ hasText: vendor.email }).waitFor();
    await settle(page);
    expect(await takeErrorDialogs(page)).toEqual([]);
    expect(refused).toEqual([]);
    await context.close();
  });

  it('a vendor or a user opening the accounts page lands on the dashboard, with no call refused and no dialog', async () => {
    for (const [account, role] of [
      [vendor, 'vendor'],
      [user, 'user'],
    ] as const) {
      const { context, page, refused } = await openAs(account, role);
      await page.goto('/admin/accounts');
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await settle(page);
      expect(await takeErrorDialogs(page)).toEqual([]);
      expect(refused).toEqual([]);
      await context.close();
    }
  });

  it('a user on a LINE push group or a flow editor lands on a page of its own, with no call refused and no dialog', async () => {
    const { context, page, refused } = await openAs(user, 'user');
    await page.goto('/line-notify/group/1');
    await page.waitForURL((url) => url.pathname === '/line-notify/group');
    await settle(page);
    expect(await takeErrorDialogs(page)).toEqual([]);

    await page.goto('/platform_rule/detail/1');
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await settle(page);
    expect(await page.getByText('只有供應商可以開啟流程編輯器').count()).toBe(0);
    expect(await takeErrorDialogs(page)).toEqual([]);
    expect(refused).toEqual([]);
    await context.close();
  });

  it('a project of another company is the not-found state at once, without tabs or buttons, and its back button leaves', async () => {
    const { context, page } = await openAs(otherVendor, 'vendor');
    const started = Date.now();
    await page.goto(`/project/detail/${built.projectId}`);
    await page.getByTestId('page-not-found').waitFor({ timeout: 5_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    await settle(page);
    expect(await page.locator('[data-testid^="project-tab-"]').count()).toBe(0);
    expect(await page.locator('.ant-layout-content .ant-skeleton').count()).toBe(0);
    expect(await page.locator('.ant-layout-content button').count()).toBe(1);
    expect(await takeErrorDialogs(page)).toEqual([]);
    await snap(page, 'project-not-found');
    await page.getByTestId('page-state-back').click();
    await page.waitForURL((url) => url.pathname === '/project/list');

    await page.goto(`/device/detail/${built.devices[0].tangramId}`);
    await page.getByTestId('page-not-found').waitFor();
    await page.getByTestId('page-state-back').click();
    await page.waitForURL((url) => url.pathname === '/device/list');
    expect(await takeErrorDialogs(page)).toEqual([]);
    await context.close();
  });
});
