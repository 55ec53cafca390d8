/**
 * The demo in Chromium: the seeded vendor watches a simulated device stream live
 * and draws its history; the seeded user sees only the two devices granted to them, no vendor menu and no vendor
 * page (spec §2 route guard, §6 roles); a logged-out deep link goes through login and back (redirectFrom).
 */
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import authZh from '../../apps/web/src/features/auth/locales/zh-TW.json' with { type: 'json' };
import devicesZh from '../../apps/web/src/features/devices/locales/zh-TW.json' with { type: 'json' };
import { DEMO_DEVICES, DEMO_PASSWORD, DEMO_USER_EMAIL, DEMO_VENDOR_EMAIL } from '@tessera/server';
import type { TTestServer } from '@tessera/server/testing';
import { submitLogin } from '../support/auth.js';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { eventually, login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const deviceRows = (page: Page) => page.locator('[data-testid^="device-row-"]');

describe('demo in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let tangramId = '';
  /** The first sensor card of telemetry-status: its name and the last value read there. */
  let sensor = { name: '', value: Number.NaN };

  beforeAll(async () => {
    server = await startE2eServer({ demo: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  describe('the demo vendor', () => {
    let page: Page;
    beforeAll(async () => {
      ({ page } = await newPage(browser, server.httpUrl));
      await login(page, DEMO_VENDOR_EMAIL, DEMO_PASSWORD, 'vendor');
    });
    afterAll(() => page.context().close());

    it('lands on a first dashboard page over a week of the demo devices’ history', async () => {
      await page.waitForURL((url) => url.pathname === '/dashboard');
      // Seven days of five devices' temperatures, in hourly buckets: the history written in the background.
      // The widget reads every 30 minutes: once the history is written, a reload shows all of it.
      const hours = async () => {
        const res = await server.ctx.db.execute(
          sql`select count(*)::int as n from telemetry_rollup where key = 'temperature' and bucket_ms = 3600000`,
        );
        return (res as unknown as { rows: { n: number }[] }).rows[0].n;
      };
      expect(await eventually(async () => (await hours()) >= 5 * 7 * 24, 30_000)).toBe(true);
      await page.reload();
      const week = page.getByTestId('widget-line-chart');
      await expect.poll(async () => Number(await week.getAttribute('data-points')), { timeout: 15_000 }).toBeGreaterThan(5 * 160);
      await expect
        .poll(() => page.locator('[data-testid^="widget-latest-value"]').first().textContent(), { timeout: 15_000 })
        .toMatch(/\d/);
      await snap(page, 'demo-dashboard');
    });

    it('sees a simulated value change on telemetry-status without a reload', async () => {
      await page.getByTestId('menu-device').click();
      await page.waitForURL(/\/device\/list/);
      await expect.poll(() => deviceRows(page).count()).toBe(DEMO_DEVICES.length);
      await deviceRows(page).filter({ hasText: DEMO_DEVICES[0].name }).click();
      await page.waitForURL(/\/device\/detail\/[0-9A-F]{30}\/telemetry-status$/);
      tangramId = ((await page.getByTestId('device-tangram-id').textContent()) ?? '').trim();
      expect(await page.getByTestId('device-name').textContent()).toBe(DEMO_DEVICES[0].name);

      const value = page.locator('[data-testid^="telemetry-value-"]').first();
      const first = await eventually(async () => {
        const text = ((await value.textContent()) ?? '').trim();
        return text && text !== devicesZh.devices.telemetry.noValue ? text : '';
      });
      expect(first).toMatch(/\d/);
      await expect.poll(() => page.getByTestId('live-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('connected');

      const navigations: string[] = [];
      page.on('framenavigated', (f) => navigations.push(f.url()));
      await expect.poll(async () => ((await value.textContent()) ?? '').trim(), { timeout: 15_000 }).not.toBe(first);
      expect(navigations).toEqual([]);
      const card = page.locator('[data-testid^="telemetry-card-"]').first();
      sensor = {
        name: ((await card.locator('.ant-card-head-title').textContent()) ?? '').trim(),
        value: Number.parseFloat((await value.textContent()) ?? ''),
      };
      expect(sensor.value).not.toBeNaN();
      await snap(page, 'demo-telemetry-status');
    });

    it('draws the history chart of the streamed values', async () => {
      await page.getByTestId('tab-history-chart').click();
      await page.waitForURL(/history-chart$/);
      const chart = page.getByTestId('history-chart');
      const points = async () => Number(await chart.getAttribute('data-points'));
      // The default 24 h range uses 5-min buckets, so a freshly started demo may be one bucket; like a user, pick
      // "last hour" (re-picking it moves its end to now) until the streamed seconds span two buckets.
      const drawn = await eventually(
        async () => {
          await page.getByTestId('history-range').first().click();
          await page.locator('.ant-picker-presets li').filter({ hasText: devicesZh.devices.history.preset['1h'] }).click();
          await page.waitForTimeout(1_000);
          return (await points()) >= 2;
        },
        30_000,
        2_000,
      );
      expect(drawn).toBe(true);
      expect(await points()).toBeGreaterThanOrEqual(2);
      // The chart's tooltip near the newest bucket reads the same sensor at about the value the status page showed
      // (the bucket averages; the simulator drifts slowly), not e.g. a bucket-to-bucket difference.
      const box = await chart.boundingBox();
      if (!box) throw new Error('history chart has no box');
      await page.mouse.move(box.x + box.width - 30, box.y + box.height / 2);
      const tip = await eventually(async () => {
        const text = (await chart.textContent()) ?? '';
        return text.includes(sensor.name) ? text : '';
      }, 5_000);
      expect(tip).toContain(sensor.name);
      const charted = Number.parseFloat(tip.split(sensor.name)[1] ?? '');
      expect(Math.abs(charted - sensor.value)).toBeLessThan(3);
      await snap(page, 'demo-history-chart');
    });
  });

  describe('the demo user', () => {
    let page: Page;
    beforeAll(async () => {
      ({ page } = await newPage(browser, server.httpUrl));
      await login(page, DEMO_USER_EMAIL, DEMO_PASSWORD, 'user');
    });
    afterAll(() => page.context().close());

    it('sees exactly the 2 devices granted to them and no product or project menu', async () => {
      await page.goto('/device/list');
      await expect.poll(() => deviceRows(page).count()).toBe(2);
      const names = await deviceRows(page).allTextContents();
      expect(names.some((n) => n.includes(DEMO_DEVICES[0].name))).toBe(true);
      expect(names.some((n) => n.includes(DEMO_DEVICES[1].name))).toBe(true);
      // The side menu loads after the layout: once it shows the device entry, it has every entry it will have.
      await page.getByTestId('menu-device').waitFor();
      expect(await page.getByTestId('menu-product').count()).toBe(0);
      expect(await page.getByTestId('menu-project').count()).toBe(0);
    });

    it('is sent from the vendor-only /product/list to their default page', async () => {
      await page.goto('/product/list');
      // The default page is the dashboard (spec §2 "/ redirects to dashboard").
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.getByTestId('dashboard').waitFor();
      expect(await page.getByTestId('product-create').count()).toBe(0);
    });
  });

  it('sends a logged-out deep link to login (token_out) and back to it after login', async () => {
    expect(tangramId).toMatch(/^[0-9A-F]{30}$/);
    const { page } = await newPage(browser, server.httpUrl);
    const deepLink = `/device/detail/${tangramId}/history-chart`;
    await page.goto(deepLink);
    await page.waitForURL(/\/login\?msg=token_out/);
    expect(new URL(page.url()).searchParams.get('redirectFrom')).toBe(deepLink);
    expect(await page.getByTestId('login-msg').textContent()).toContain(authZh.auth.msg.token_out);

    expect(await submitLogin(page, DEMO_USER_EMAIL, DEMO_PASSWORD, 'user')).toBe(200);
    await page.waitForURL((url) => url.pathname === deepLink);
    expect(await page.getByTestId('device-name').textContent()).toBe(DEMO_DEVICES[0].name);
    await page.getByTestId('history-chart').waitFor({ state: 'attached' });
    await page.context().close();
  });
});
