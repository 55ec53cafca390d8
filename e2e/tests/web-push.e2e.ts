/**
 * The push switch in Chromium (docs/decisions/device-control.md "Push switch"): what can be shown for real here.
 * Headless Chromium has no push service (its subscribe is refused at once, and these machines reach no internet), so
 * the switch's refusals are what a user sees: notifications blocked → "allow them in the site settings", push service
 * unavailable → "could not subscribe"; the switch stays off and nothing is registered. The console's service worker
 * is real: a push delivered to it through the DevTools protocol shows the server's notification. Delivery from the
 * server to a push service is the integration test's (modules/web-push/web-push.int.test.ts).
 */
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import controlZh from '../../apps/web/src/features/devices/locales/control.zh-TW.json' with { type: 'json' };
import { webPushSubscriptions, renderAlertPush } from '@tessera/server';
import { buildDeviceProject, type TBuiltDevice, buildVendor, TEST_PASSWORD, type TBuiltAccount } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const push = controlZh.deviceControl.push;

describe('push switch and service worker in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let device: TBuiltDevice;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    device = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId })).devices[0];
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const subscriptions = () => server.ctx.db.select().from(webPushSubscriptions).where(eq(webPushSubscriptions.accountId, vendor.accountId));

  it('says notifications are blocked when the site may not show them, and stays off', async () => {
    const { context, page } = await newPage(browser, server.httpUrl);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/device/detail/${device.tangramId}/telemetry-status`);
    const toggle = page.getByTestId('fcm-switch');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await expect.poll(() => page.getByTestId('push-problem').textContent()).toBe(push.denied);
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await subscriptions()).toHaveLength(0);
    await context.close();
  });

  it('with notifications allowed: says the push service could not be reached, and the worker shows a pushed alert', async () => {
    const { context, page } = await newPage(browser, server.httpUrl);
    await context.grantPermissions(['notifications'], { origin: server.httpUrl });
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/device/detail/${device.tangramId}/telemetry-status`);
    const toggle = page.getByTestId('fcm-switch');
    await toggle.click();
    await expect.poll(() => page.getByTestId('push-problem').textContent()).toBe(push.failed);
    await snap(page, 'push-switch-failed');
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await subscriptions()).toHaveLength(0);

    // The switch registered the console's service worker before the push service refused: deliver it a push.
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    await expect.poll(() => registrations.find((r) => r.scopeURL === `${server.httpUrl}/`)?.registrationId).toBeTruthy();
    const payload = renderAlertPush('zh-TW', {
      reason: 'opened',
      level: 'alert',
      ruleName: 'Too hot',
      message: 'temperature above 30',
      projectName: 'P',
      deviceName: '冷卻泵',
      tangramId: device.tangramId,
      trigger: { key: 'temperature', value: 31.5 },
      at: Date.UTC(2026, 0, 15, 4, 5, 6),
      link: `${server.httpUrl}/alerts/history?device=${device.tangramId}`,
      alertId: 7,
    });
    const registrationId = registrations.find((r) => r.scopeURL === `${server.httpUrl}/`)!.registrationId;
    // A push reaches only an activated worker: a registration can be seen while its worker still installs.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const deliver = () =>
      cdp.send('ServiceWorker.deliverPushMessage', { origin: server.httpUrl, registrationId, data: JSON.stringify(payload) });
    await deliver();
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          url: n.data?.url,
        })),
      );
    // A push the worker was not ready for is dropped (a loaded machine): push again until it shows (same tag: one).
    await expect
      .poll(
        async () => {
          const now = await shown();
          if (now.length === 0) await deliver();
          return now;
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toEqual([{ title: payload.title, body: payload.body, tag: 'alert-7', url: payload.url }]);
    await context.close();
  });
});
