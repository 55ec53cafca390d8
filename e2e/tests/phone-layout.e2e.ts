/**
 * End to end in Chromium: the console at a phone's width (390×844) as the people who answer alerts on the floor use
 * it. As a vendor and as a user, the main pages (dashboard, device list and detail, alerts, authorisation requests,
 * a platform rule, machines, the audit log) never make the page wider than the phone; the menu is a drawer that
 * leaves the page its width and closes once a page is chosen; the header stays one line with the account's links in
 * one menu; a form drawer fits the screen; the flow editor opens read-only with its run list. At 1440×900 the desktop
 * shell is unchanged (side menu, e-mail in the header), and no page has the browser's 8 px body margin.
 */
import { platformRulePaths, type TFlowGraphInput, type TPlatformRule } from '@tessera/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceAuthz, machineAuthz, machineBindings, machineComponents, machineConfigures, machines } from '@tessera/server';
import {
  buildDeviceProject,
  buildUser,
  buildVendor,
  insertAlert,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, snap } from '../support/browser.js';
import { login, publishAsDevice } from '../support/console.js';
import { DESKTOP, expectNoHorizontalOverflow, PHONE } from '../support/layout.js';
import { navigateInApp, waitForPageDrawn } from '../support/route-walk.js';
import { startE2eServer } from '../support/server.js';

describe('the console at phone width (Chromium, 390×844)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let built: TBuiltProject;
  let ruleId = 0;
  let machineId = 0;

  /** A logged-in page of `account` at `viewport` (its own context: storage and cache). */
  async function openAs(account: TBuiltAccount, role: 'vendor' | 'user', viewport: { width: number; height: number }) {
    const context: BrowserContext = await browser.newContext({
      baseURL: server.httpUrl,
      locale: 'zh-TW',
      viewport,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await login(page, account.email, TEST_PASSWORD, role);
    return { context, page };
  }

  /** Opens `path` and waits until the page has drawn its data (no request for half a second, no spinner). */
  async function visit(page: Page, path: string): Promise<void> {
    await page.goto(path);
    await page.locator('.ant-layout-content').waitFor();
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await expect.poll(() => page.locator('.ant-layout-content .ant-spin-spinning, .ant-layout-content .ant-skeleton').count()).toBe(0);
  }

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    const [first, second] = built.devices;
    await publishAsDevice(server.mqttUrl, first.tangramId, first.secret, [
      { key: 'temperature', vs: [31.5], ts: Date.now() },
      { key: 'current', vs: [1.25], ts: Date.now() },
    ]);
    await insertAlert(server.ctx.db, first.id, { message: 'temperature above 30 at the long-named compressor station north' });
    await server.ctx.db.insert(deviceAuthz).values([
      { deviceId: first.id, accountId: user.accountId },
      { deviceId: second.id, accountId: user.accountId },
    ]);

    const [configure] = await server.ctx.db.insert(machineConfigures).values({ tenantId: vendor.tenantId, name: '空壓機' }).returning();
    const [component] = await server.ctx.db
      .insert(machineComponents)
      .values({ configureId: configure.id, name: '馬達', productId: built.productId, keys: ['temperature', 'current'], position: 0 })
      .returning();
    const [machine] = await server.ctx.db
      .insert(machines)
      .values({ tenantId: vendor.tenantId, configureId: configure.id, name: '空壓機一號' })
      .returning();
    machineId = machine.id;
    await server.ctx.db.insert(machineBindings).values({ machineId, componentId: component.id, deviceId: first.id });
    await server.ctx.db.insert(machineAuthz).values({ machineId, accountId: user.accountId });

    const draft: TFlowGraphInput = {
      nodes: [
        { id: 'n1', type: 'start', position: { x: 0, y: 0 }, data: { trigger: { kind: 'schedule', cron: '0 * * * *', time_zone: 'UTC' } } },
        {
          id: 'n2',
          type: 'deviceParallelControl',
          position: { x: 0, y: 160 },
          data: { scope: { kind: 'projects', ids: [built.projectId] }, command: { name: 'getDeviceInfo' }, concurrency: 3 },
        },
      ],
      edges: [{ id: 'e1', source: 'n1', target: 'n2' }],
    };
    const created = await server.api<TPlatformRule>('POST', platformRulePaths.rules, {
      token: vendor.token,
      body: { name: 'Hourly device check', draft },
    });
    expect(created.status).toBe(201);
    ruleId = created.body.id;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /**
   * Opens each of `paths` as `account` at phone width, inside the loaded console as a link would (no reload per page),
   * and fails on the first page wider than the phone.
   */
  async function walk(account: TBuiltAccount, role: 'vendor' | 'user', paths: string[]): Promise<void> {
    const { context, page } = await openAs(account, role, PHONE);
    for (const path of paths) {
      await navigateInApp(page, path);
      await waitForPageDrawn(page);
      await snap(page, `phone-${role}${path.replaceAll('/', '-')}`);
      await expectNoHorizontalOverflow(page, `${role} ${path}`);
    }
    await context.close();
  }

  it('as a vendor, no main page is wider than the phone', async () => {
    const device = built.devices[0].tangramId;
    await walk(vendor, 'vendor', [
      '/dashboard',
      '/device/list',
      `/device/detail/${device}`,
      `/device/detail/${device}/history-chart`,
      '/alerts/dashboard',
      '/alerts/history',
      '/self-auth/devce-auth',
      '/self-auth/history',
      '/platform_rule/list',
      `/platform_rule/detail/${ruleId}`,
      '/machine/configure',
      '/machine/equipment',
      `/machine/equipment/${machineId}`,
      '/audit-log',
    ]);
  });

  it('as a user, no main page is wider than the phone', async () => {
    const device = built.devices[0].tangramId;
    await walk(user, 'user', [
      '/dashboard',
      '/device/list',
      `/device/detail/${device}`,
      '/alerts/dashboard',
      '/alerts/history',
      '/self-auth/devce-auth',
      '/self-auth/history',
      '/machine/equipment',
      `/machine/equipment/${machineId}`,
    ]);
  });

  it('opens the menu as a drawer over the page, and closes it once a section is chosen', async () => {
    const { context, page } = await openAs(vendor, 'vendor', PHONE);
    await visit(page, '/dashboard');
    expect(await page.getByTestId('side-menu').count()).toBe(0);
    const contentWidth = async () => (await page.locator('.ant-layout-content').boundingBox())?.width ?? 0;
    const widthBefore = await contentWidth();
    expect(widthBefore).toBeGreaterThan(PHONE.width - 40);

    await page.getByTestId('menu-open').click();
    await page.getByTestId('side-menu').waitFor();
    // The drawer lies over the page: the page keeps its width (the side bar used to squeeze it to ~100 px).
    expect(await contentWidth()).toBe(widthBefore);
    await expectNoHorizontalOverflow(page, 'menu drawer open');
    await snap(page, 'phone-menu-open');

    await page.getByTestId('menu-device').click();
    await page.waitForURL(/\/device\/list$/);
    await page.getByTestId('side-menu').waitFor({ state: 'hidden' });
    await context.close();
  });

  it('keeps the header one line, with the e-mail, profile and logout in the account menu', async () => {
    const { context, page } = await openAs(vendor, 'vendor', PHONE);
    await visit(page, '/device/list');
    const header = page.locator('.ant-layout-header');
    expect((await header.boundingBox())?.height).toBeLessThanOrEqual(64);
    expect(await page.getByTestId('header-email').count()).toBe(0);
    expect(await page.getByTestId('header-logout').count()).toBe(0);

    await page.getByTestId('account-menu').click();
    await page.getByTestId('header-email').waitFor();
    expect(await page.getByTestId('header-email').textContent()).toBe(vendor.email);
    const menu = await page.locator('.ant-dropdown:visible').boundingBox();
    expect(menu && menu.x >= 0 && menu.x + menu.width <= PHONE.width).toBe(true);
    await snap(page, 'phone-account-menu');
    await page.getByTestId('header-profile').click();
    await page.waitForURL(/\/profile$/);
    await expectNoHorizontalOverflow(page, 'profile');
    await context.close();
  });

  it('fits a form drawer on the screen', async () => {
    const { context, page } = await openAs(vendor, 'vendor', PHONE);
    await visit(page, '/machine/configure');
    await page.getByTestId('configure-create').first().click();
    await page.getByTestId('configure-name').waitFor();
    const drawer = await page.locator('.ant-drawer-content-wrapper:visible').boundingBox();
    expect(drawer?.width).toBeLessThanOrEqual(PHONE.width);
    expect(drawer?.x).toBeGreaterThanOrEqual(0);
    await snap(page, 'phone-form-drawer');
    await context.close();
  });

  it('opens the flow editor read-only, with its graph and run list', async () => {
    const { context, page } = await openAs(vendor, 'vendor', PHONE);
    await visit(page, `/platform_rule/detail/${ruleId}`);
    await page.getByTestId('rule-read-only').waitFor();
    const canvas = await page.getByTestId('flow-canvas').boundingBox();
    expect(canvas?.width).toBeGreaterThan(PHONE.width - 60);
    expect(canvas?.height).toBeGreaterThan(300);
    expect(await page.locator('.react-flow__node').count()).toBe(2);
    expect(await page.getByTestId('rule-save').count()).toBe(0);
    expect(await page.getByTestId('rule-apply').count()).toBe(0);
    await page.getByTestId('rule-runs').waitFor();
    await context.close();
  });

  it('at 1440×900 keeps the desktop shell, and no page has the 8 px body margin', async () => {
    const context = await browser.newContext({ baseURL: server.httpUrl, locale: 'zh-TW', viewport: DESKTOP, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
    // The login page fits the window: no scrollbar for a margin.
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    for (const path of ['/dashboard', '/device/list', '/alerts/history', `/platform_rule/detail/${ruleId}`]) {
      await visit(page, path);
      await expectNoHorizontalOverflow(page, `desktop ${path}`);
    }
    await page.getByTestId('side-menu').waitFor();
    expect(await page.getByTestId('header-email').textContent()).toBe(vendor.email);
    expect(await page.getByTestId('menu-open').count()).toBe(0);
    expect(await page.getByTestId('rule-save').count()).toBe(1);
    await visit(page, '/device/list');
    await snap(page, 'desktop-device-list');
    await context.close();
  });
});
