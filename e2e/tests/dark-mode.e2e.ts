/**
 * End to end in Chromium: the console follows the system's dark colour scheme (antd's dark algorithm on the page,
 * ECharts' dark theme on a chart, React Flow's dark mode in the flow editor), and the header's appearance switch
 * overrides it — light on a dark system, dark on a light one — remembered after a reload. In dark mode the main pages
 * (dashboard with widgets, device list and detail, alerts, products) have no serious or critical axe-core violation
 * (WCAG 2 A/AA, colour contrast included).
 */
import {
  DAY_MS,
  dashboardPaths,
  platformRulePaths,
  type TDashboardPage,
  type TFlowGraphInput,
  type TPlatformRule,
} from '@tessera/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, buildVendor, insertAlert, TEST_PASSWORD, type TBuiltAccount, type TTestServer } from '@tessera/server/testing';
import { seriousAxeViolations } from '../support/accessibility.js';
import { launchBrowser, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { waitForPageDrawn } from '../support/route-walk.js';
import { startE2eServer } from '../support/server.js';

/** The relative luminance (0 black … 1 white) of a CSS `rgb(…)` colour. */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? ['255', '255', '255']).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

describe('dark mode (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let ruleId = 0;
  let tangramId = '';

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    const project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    tangramId = project.devices[0].tangramId;
    const board = await server.api<TDashboardPage>('POST', dashboardPaths.pages, { token: vendor.token, body: { name: 'Dark' } });
    const widget = (type: string, parameter: object, x: number) => ({
      new: true,
      type,
      title: type,
      parameter: JSON.stringify(parameter),
      layout: { x, y: 0, w: 4, h: 4 },
    });
    await server.api('PUT', dashboardPaths.widgets(board.body.id), {
      token: vendor.token,
      body: {
        widgetList: [
          widget('line', { series: [{ tangram_id: tangramId, key: 'temperature' }] }, 0),
          widget('alerts', {}, 4),
          widget('devices', { tangram_ids: [tangramId] }, 8),
        ],
      },
    });
    await insertAlert(server.ctx.db, project.devices[0].id, { firstSeenAt: Date.now() - DAY_MS / 2, level: 'alert', message: 'hot' });
    const draft: TFlowGraphInput = {
      nodes: [{ id: 'n1', type: 'start', position: { x: 0, y: 0 }, data: { trigger: { kind: 'manual' } } }],
      edges: [],
    };
    const created = await server.api<TPlatformRule>('POST', platformRulePaths.rules, {
      token: vendor.token,
      body: { name: 'Dark', draft },
    });
    ruleId = created.body.id;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function open(colorScheme: 'dark' | 'light'): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      baseURL: server.httpUrl,
      locale: 'zh-TW',
      colorScheme,
      viewport: { width: 1366, height: 900 },
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    return { context, page };
  }
  const bodyLuminance = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor).then(luminance);
  const headerLuminance = (page: Page) =>
    page.evaluate(() => getComputedStyle(document.querySelector('.ant-layout-header') as Element).backgroundColor).then(luminance);
  async function chartScheme(page: Page): Promise<string | null> {
    const chart = page.getByTestId('alert-chart-level');
    await chart.locator('canvas').waitFor();
    return chart.getAttribute('data-chart-scheme');
  }
  async function choose(page: Page, choice: 'system' | 'light' | 'dark'): Promise<void> {
    await page.getByTestId('color-scheme-switch').click();
    await page.getByTestId(`color-scheme-${choice}`).click();
  }

  it('follows a dark system: dark page, a chart in the dark theme, the flow editor dark', async () => {
    const { context, page } = await open('dark');
    await page.goto('/alerts/statistics');
    expect(await chartScheme(page)).toBe('dark');
    expect(await bodyLuminance(page)).toBeLessThan(0.2);
    expect(await headerLuminance(page)).toBeLessThan(0.2);
    expect(await page.getByTestId('color-scheme-switch').getAttribute('data-choice')).toBe('system');
    await snap(page, 'dark-statistics');
    await page.goto(`/platform_rule/detail/${ruleId}`);
    await page.getByTestId('flow-node-n1').waitFor();
    expect(await page.locator('.react-flow.dark').count()).toBe(1);
    await snap(page, 'dark-flow-editor');

    // The switch overrides the system, and the choice survives a reload.
    await page.goto('/alerts/statistics');
    await choose(page, 'light');
    await expect.poll(() => chartScheme(page)).toBe('light');
    expect(await bodyLuminance(page)).toBeGreaterThan(0.8);
    await page.reload();
    expect(await chartScheme(page)).toBe('light');
    expect(await bodyLuminance(page)).toBeGreaterThan(0.8);
    // Back to following the system: dark again.
    await choose(page, 'system');
    await expect.poll(() => chartScheme(page)).toBe('dark');
    await context.close();
  }, 240_000);

  it('on a light system the switch turns the console dark', async () => {
    const { context, page } = await open('light');
    await page.goto('/alerts/statistics');
    expect(await chartScheme(page)).toBe('light');
    expect(await bodyLuminance(page)).toBeGreaterThan(0.8);
    // Light tags (alert levels, device states) meet AA contrast: antd's status and preset tag text is darkened.
    const found: string[] = [];
    for (const path of ['/alerts/history', '/device/list']) {
      await page.goto(path);
      await waitForPageDrawn(page);
      for (const v of await seriousAxeViolations(page)) found.push(`${path}: ${v.id} (${v.impact}) at ${v.targets.join(', ')}`);
    }
    expect(found).toEqual([]);
    await page.goto('/alerts/statistics');
    await choose(page, 'dark');
    await expect.poll(() => chartScheme(page)).toBe('dark');
    expect(await bodyLuminance(page)).toBeLessThan(0.2);
    await context.close();
  }, 120_000);

  it('has no serious or critical axe violation on the main pages in dark mode', async () => {
    const { context, page } = await open('dark');
    const found: string[] = [];
    for (const path of [
      '/dashboard',
      '/device/list',
      `/device/detail/${tangramId}/telemetry-status`,
      '/alerts/dashboard',
      '/alerts/history',
      '/product/list',
    ]) {
      await page.goto(path);
      await waitForPageDrawn(page);
      expect(await bodyLuminance(page)).toBeLessThan(0.2);
      for (const v of await seriousAxeViolations(page)) found.push(`${path}: ${v.id} (${v.impact}) at ${v.targets.join(', ')}`);
    }
    expect(found).toEqual([]);
    await context.close();
  }, 240_000);
});
