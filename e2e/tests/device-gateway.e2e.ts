/**
 * Gateways in Chromium (docs/decisions/device-apis.md "Gateway"): a vendor turns on a device's "Gateway" switch, a
 * real MQTT.js gateway logged in with that device's access token connects two devices by name and publishes their
 * telemetry, and the gateway's page lists them, connected and online; one disconnected shows as no longer connected.
 * The project's "Gateways may create devices" switch is saved.
 */
import { GATEWAY_TOPICS as T, paths, type TDeviceCredentials } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDeviceProject,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import { devices } from '@tessera/server';
import { launchBrowser, newConsolePage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('gateways (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  let token = '';

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    const [gateway, a, b] = project.devices;
    await server.ctx.db.update(devices).set({ name: 'Boiler pump' }).where(eq(devices.id, a.id));
    await server.ctx.db.update(devices).set({ name: 'Feed valve' }).where(eq(devices.id, b.id));
    token = (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(gateway.tangramId), { token: vendor.token })).body
      .access_token as string;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a vendor marks a device as a gateway; the devices a real gateway connects are listed on its page', async () => {
    const [gateway, a, b] = project.devices;
    const { page } = await newConsolePage(browser, server.httpUrl, 'en');
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/device/detail/${gateway.tangramId}`);
    const toggle = page.getByTestId('gateway-switch');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByTestId('gateway-devices-card').count()).toBe(0);
    await toggle.click();
    await page.getByTestId('gateway-switch-confirm').click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    const card = page.getByTestId('gateway-devices-card');
    await card.waitFor();

    // A real gateway: MQTT.js with the gateway's access token, connecting two devices by name.
    const client = await mqtt.connectAsync(server.mqttUrl, { username: token, reconnectPeriod: 0, connectTimeout: 5_000 });
    await client.publishAsync(T.connect, JSON.stringify({ device: 'Boiler pump' }), { qos: 1 });
    await client.publishAsync(
      T.telemetry,
      JSON.stringify({ 'Boiler pump': [{ ts: Date.now(), values: { temperature: 71.5 } }], 'Feed valve': { humidity: 40 } }),
      { qos: 1 },
    );
    await page.reload();
    const rowA = card.getByTestId(`gateway-device-${a.tangramId}`);
    const rowB = card.getByTestId(`gateway-device-${b.tangramId}`);
    await rowA.waitFor();
    await rowB.waitFor();
    expect(await rowA.textContent()).toContain('Boiler pump');
    expect(await rowA.getByTestId('gateway-device-connected').getAttribute('data-connected')).toBe('true');
    expect(await rowB.locator('[data-online]').getAttribute('data-online')).toBe('true');
    await snap(page, 'device-gateway');

    await client.publishAsync(T.disconnect, JSON.stringify({ device: 'Feed valve' }), { qos: 1 });
    await page.reload();
    await rowB.waitFor();
    expect(await rowB.getByTestId('gateway-device-connected').getAttribute('data-connected')).toBe('false');
    expect(await rowB.locator('[data-online]').getAttribute('data-online')).toBe('false');
    await rowA.getByRole('link', { name: 'Boiler pump' }).click();
    await page.waitForURL(new RegExp(`/device/detail/${a.tangramId}`));
    // The gateway's page stays until the device's has loaded: read the badge once the device's name is shown.
    await expect.poll(() => page.getByTestId('device-name').textContent()).toBe('Boiler pump');
    expect(await page.getByTestId('device-online').getAttribute('data-online')).toBe('true');
    await client.endAsync(true);
    await page.close();
  });

  it("a vendor lets the project's gateways create devices", async () => {
    const { page } = await newConsolePage(browser, server.httpUrl, 'en');
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/project/detail/${project.projectId}/system`);
    const creates = page.getByTestId('gateway-creates-devices');
    await creates.waitFor();
    await expect.poll(() => creates.getAttribute('aria-checked')).toBe('false');
    await creates.click();
    await expect
      .poll(
        async () =>
          (await server.api<{ gateway_creates_devices: boolean }>('GET', paths.projectGateway(project.projectId), { token: vendor.token }))
            .body,
      )
      .toEqual({ gateway_creates_devices: true });
    await page.close();
  });
});
