/**
 * Undeclared telemetry keys in the console (docs/decisions/telemetry.md "Undeclared keys"): the vendor turns on
 * "Accept keys no sensor declares" on the system tab, a real MQTT device sends keys no sensor declares, and the
 * configure tab offers them with the type of their first value; declaring one (name, unit) makes it a sensor of
 * that type, discarding another takes it off the offer.
 */
import { topics } from '@tessera/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDeviceProject,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltDevice,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, newConsolePage } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('declaring an undeclared key on the configure tab (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let projectId = 0;
  let dev: TBuiltDevice;
  let device: MqttClient;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    const built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, sensors: [{ key: 'temperature', unit: '°C' }] });
    projectId = built.projectId;
    [dev] = built.devices;
    device = await mqtt.connectAsync(server.mqttUrl, {
      username: dev.tangramId,
      password: dev.secret,
      clientId: `${dev.tangramId}-e2e`,
      reconnectPeriod: 0,
    });
  });
  afterAll(async () => {
    await device?.endAsync(true);
    await browser?.close();
    await server?.stop();
  });

  it('turns acceptance on, lists the keys a device sent, declares one as a sensor and discards another', async () => {
    const { page } = await newConsolePage(browser, server.httpUrl, 'en');
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/project/detail/${projectId}/system`);
    const toggle = page.getByTestId('accepts-undeclared-keys');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');

    const ts = Date.now() - 1_000;
    await device.publishAsync(
      topics.telemetry(dev.tangramId),
      JSON.stringify([
        { key: 'temperature', ts, vs: [21] },
        { key: 'pressure', ts, vs: [1013] },
        { key: 'mode', ts, vs: ['eco'] },
      ]),
      { qos: 1 },
    );

    await page.goto(`/project/detail/${projectId}/configure`);
    const pressure = page.getByTestId('undeclared-pressure');
    await expect.poll(() => pressure.textContent()).toContain('Number');
    expect(await page.getByTestId('undeclared-mode').textContent()).toContain('Text');
    expect(await page.getByTestId('sensor-row-pressure').count()).toBe(0);

    await page.getByTestId('undeclared-declare-pressure').click();
    await page.getByTestId('undeclared-declare-name').fill('Pressure');
    await page.getByTestId('undeclared-declare-unit').fill('hPa');
    await page.getByTestId('undeclared-declare-submit').click();
    await expect.poll(() => page.getByTestId('sensor-row-pressure').count()).toBe(1);
    expect(await page.getByTestId('sensor-row-pressure').textContent()).toContain('Pressure');
    await expect.poll(() => pressure.count()).toBe(0);

    await page.getByTestId('undeclared-discard-mode').click();
    await page.getByTestId('undeclared-discard-confirm').click();
    await expect.poll(() => page.getByTestId('undeclared-mode').count()).toBe(0);
    expect(await page.getByTestId('undeclared-keys').textContent()).toContain('No undeclared keys');
  });
});
