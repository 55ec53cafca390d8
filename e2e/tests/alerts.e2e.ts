/**
 * Alerts pages in Chromium against the real server: the dashboard receives an alert raised server-side while
 * it is open (live channel, no reload); headless Chromium blocks audio without a user gesture, so the spec's "sound
 * playback blocked by browser" message shows and its button enables the chime; the mute switch is remembered;
 * acknowledge and resolve (with its confirmation) change the state; statistics draws its charts with the counts;
 * history filters, refuses a period over the §5 limit, and exports the CSV through the HTTP client.
 */
import { readFileSync } from 'node:fs';
import { ALERT_RANGE_MAX_DAYS, alertPaths, DAY_MS, paths, type TTokenResponse } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, publishAlertChange } from '@tessera/server';
import {
  insertAlert,
  parseCsv,
  type TAlertFixture,
  buildDeviceProject,
  type TBuiltProject,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
} from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { PROBE_MS } from '../../apps/web/src/features/alerts/model/alertSound.js';
import { launchBrowser, newConsolePage, newPage, snap } from '../support/browser.js';
import { pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('alerts pages in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  const now = Date.now();
  const ids: Record<string, number> = {};

  /** Inserts an alert as the rule engine would, and publishes it live. */
  const raise = async (deviceIndex: number, fields: TAlertFixture) => {
    const id = await insertAlert(server.ctx.db, project.devices[deviceIndex].id, fields);
    await publishAlertChange(server.ctx, id);
    return id;
  };
  /**
   * Logs in without touching the page: Chromium lets a site play sound once the user has interacted with it (a click
   * on the login form would count), so the tokens are stored the way the console stores them instead.
   */
  const loginWithoutGesture = async (p: Page) => {
    const res = await server.api<TTokenResponse>('POST', paths.login, {
      body: { email: vendor.email, password: TEST_PASSWORD, role: 'vendor' },
    });
    await p.goto('/login');
    await p.evaluate(
      ([token, refresh]) => {
        localStorage.setItem('idtoken', token);
        localStorage.setItem('refresh_token', refresh);
      },
      [res.body.token, res.body.refresh_token] as const,
    );
  };
  /**
   * Opens the dashboard and lets it settle without querying the page: Playwright's page queries run as user
   * activation, and an AudioContext created after one would be allowed to play. Waiting on the network instead,
   * then past the sound's probe, shows what a user who has not clicked yet sees.
   */
  const openDashboardUntouched = async (p: Page, path = '/alerts/dashboard') => {
    const loaded = p.waitForResponse((r) => r.url().includes(alertPaths.dashboard) && r.status() === 200);
    await p.goto(path);
    await loaded;
    await new Promise((r) => setTimeout(r, 4 * PROBE_MS));
  };
  const stateOf = async (id: number) => (await server.ctx.db.select().from(alerts).where(eq(alerts.id, id)))[0].state;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    ids.older = await insertAlert(server.ctx.db, project.devices[0].id, {
      firstSeenAt: now - 2 * DAY_MS,
      level: 'remind',
      message: '濕度偏高',
      state: 'resolved',
      resolvedAt: now - DAY_MS,
      resolvedReason: 'cleared',
    });
    ids.warning = await insertAlert(server.ctx.db, project.devices[1].id, {
      firstSeenAt: now - DAY_MS,
      level: 'early_warning',
      message: '電流偏高',
    });
    ({ page } = await newPage(browser, server.httpUrl));
    await loginWithoutGesture(page);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('says that the browser blocks sound, and its button (a user gesture) enables the chime', async () => {
    // A fresh document and nothing clicked on it, so Chromium's autoplay policy keeps audio suspended.
    await openDashboardUntouched(page, '/alerts');
    expect(new URL(page.url()).pathname).toBe('/alerts/dashboard');
    await page.getByText('瀏覽器已封鎖音效播放').waitFor();
    await page.getByTestId(`alert-row-${ids.warning}`).waitFor();
    await snap(page, 'alerts-dashboard-blocked');
    const chime = page.waitForResponse((r) => /\/assets\/alert-[^/]+\.wav$/.test(r.url()) && r.status() === 200);
    await page.getByTestId('alert-sound-enable').click();
    await chime;
    await page.getByTestId('alert-sound-blocked').waitFor({ state: 'hidden' });
  });

  it('receives an alert raised on the server while the page is open, at the top, without a reload', async () => {
    await expect.poll(() => page.getByTestId('live-state').getAttribute('data-state')).toBe('connected');
    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));
    ids.live = await raise(0, { level: 'alert', message: '溫度過高 live' });
    const row = page.getByTestId(`alert-row-${ids.live}`);
    await row.waitFor();
    expect(await page.locator('[data-testid^="alert-row-"]').first().getAttribute('data-testid')).toBe(`alert-row-${ids.live}`);
    expect(await row.textContent()).toContain('溫度過高 live');
    expect(await page.getByTestId(`alert-state-${ids.live}`).getAttribute('data-state')).toBe('open');
    ids.second = await raise(1, { level: 'alert', message: '第二則告警' });
    await page.getByTestId(`alert-row-${ids.second}`).waitFor();
    expect(navigations).toEqual([]);
    expect(await page.getByTestId('alert-sound-blocked').count()).toBe(0);
  });

  it('remembers the mute switch across reloads', async () => {
    const sw = page.getByTestId('alert-sound-switch');
    expect(await sw.getAttribute('aria-checked')).toBe('true');
    await sw.click();
    expect(await page.evaluate(() => localStorage.getItem('tessera.alerts.soundMuted'))).toBe('1');
    await page.reload();
    await page.getByTestId(`alert-row-${ids.live}`).waitFor();
    expect(await page.getByTestId('alert-sound-switch').getAttribute('aria-checked')).toBe('false');
    // Muted: no message asking to enable sound even though this new document has no gesture yet.
    expect(await page.getByTestId('alert-sound-blocked').count()).toBe(0);
    await page.getByTestId('alert-sound-switch').click();
    expect(await page.evaluate(() => localStorage.getItem('tessera.alerts.soundMuted'))).toBe('0');
  });

  it('acknowledges, and resolves after a confirmation; the drawer shows the fields', async () => {
    await page.getByTestId(`alert-ack-${ids.live}`).click();
    await expect.poll(() => page.getByTestId(`alert-state-${ids.live}`).getAttribute('data-state')).toBe('acknowledged');
    expect(await stateOf(ids.live)).toBe('acknowledged');

    await page.getByTestId(`alert-resolve-${ids.live}`).click();
    await page.getByText('確定要手動解除此告警嗎？').waitFor();
    await page.getByTestId(`alert-resolve-confirm-${ids.live}`).click();
    await expect.poll(() => page.getByTestId(`alert-state-${ids.live}`).getAttribute('data-state')).toBe('resolved');
    expect(await stateOf(ids.live)).toBe('resolved');

    await page.getByTestId(`alert-row-${ids.live}`).click();
    const fields = page.getByTestId('alert-drawer-fields');
    await fields.waitFor();
    const text = await fields.textContent();
    expect(text).toContain('溫度過高 live');
    expect(text).toContain(project.devices[0].tangramId);
    expect(text).toContain('手動解除');
    expect(text).toContain(vendor.email);
    await page.getByTestId('alert-deliveries').waitFor();
    await snap(page, 'alerts-drawer');
    await page.keyboard.press('Escape');
  });

  it('statistics: charts and counts over the default last 7 days, and the detail table', async () => {
    await page.getByTestId('alerts-tab-statistics').click();
    await page.waitForURL('**/alerts/statistics');
    await expect.poll(() => page.getByTestId('alert-stats-total').textContent()).toContain('4');
    expect(await page.getByTestId('alert-stats-alert').textContent()).toContain('2');
    expect(await page.getByTestId('alert-stats-early_warning').textContent()).toContain('1');
    for (const chart of ['level', 'project', 'product', 'day']) {
      const el = page.getByTestId(`alert-chart-${chart}`);
      await el.locator('canvas').waitFor();
      expect(await el.getAttribute('data-total')).toBe('4');
    }
    await expect.poll(() => page.getByTestId('alert-detail-table').locator('tbody tr.ant-table-row').count()).toBe(4);
    await snap(page, 'alerts-statistics');
  });

  it('history: filters by level, refuses a period over the limit, exports the CSV', async () => {
    const from = now - 10 * DAY_MS;
    await page.goto(`/alerts/history?from=${from}&to=${now + 60_000}`);
    await page.getByTestId(`alert-row-${ids.older}`).waitFor();
    await page.getByText(`期間最長 ${ALERT_RANGE_MAX_DAYS} 天`).waitFor();
    await pickOption(page, 'alert-filter-level', '預警');
    await expect.poll(() => page.locator('[data-testid^="alert-row-"]').count()).toBe(1);
    expect(await page.getByTestId(`alert-row-${ids.warning}`).isVisible()).toBe(true);
    expect(new URL(page.url()).searchParams.get('level')).toBe('early_warning');

    const download = page.waitForEvent('download');
    await page.getByTestId('alert-export').click();
    const file = await (await download).path();
    const rows = parseCsv(readFileSync(file, 'utf8'));
    expect(rows.map((r) => Number(r.id))).toEqual([ids.warning]);
    expect(rows[0]).toMatchObject({ level: 'early_warning', message: '電流偏高', device_tangram_id: project.devices[1].tangramId });

    // One millisecond over the limit: the page explains and does not query; the server would refuse it too.
    await page.goto(`/alerts/history?from=${now - ALERT_RANGE_MAX_DAYS * DAY_MS - 1}&to=${now}`);
    await page.getByText(`期間超過 ${ALERT_RANGE_MAX_DAYS} 天，請選擇較短的期間。`).waitFor();
    expect(await page.getByTestId('alert-export').isDisabled()).toBe(true);

    // A period without alerts: the export says so (spec "no data in period").
    await page.goto(`/alerts/history?from=${now - 40 * DAY_MS}&to=${now - 30 * DAY_MS}`);
    await page.getByTestId('alert-export').click();
    await page.getByText('此期間沒有資料。').waitFor();
  });

  it('speaks English too, including the blocked-sound message', async () => {
    const en = await newConsolePage(browser, server.httpUrl, 'en');
    await loginWithoutGesture(en.page);
    await openDashboardUntouched(en.page);
    await en.page.getByText('Sound playback blocked by browser').waitFor();
    expect(await en.page.getByTestId('alert-sound-enable').textContent()).toBe('Enable sound');
    await en.page.getByText('Latest alerts').waitFor();
    await en.context.close();
  });
});
