/**
 * Telemetry that is not numbers on the device page (docs/decisions/telemetry.md "Values that are not numbers"): a
 * device publishing a string-valued and a boolean-valued key over real MQTT shows both on its telemetry-status page,
 * and a newer value replaces them live, with no reload; the history tab lists each key's points (no rollups) and
 * draws the boolean's state timeline.
 */
import { topics } from '@tessera/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDeviceProject,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltDevice,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, newConsolePage, snap } from '../support/browser.js';
import { login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('string and boolean telemetry on the device page (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let dev: TBuiltDevice;
  let device: MqttClient;

  const publish = (points: unknown[]) => device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify(points), { qos: 1 });

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    [dev] = (
      await buildDeviceProject(server.ctx.db, {
        tenantId: vendor.tenantId,
        count: 1,
        sensors: [
          { key: 'temperature', unit: '°C' },
          { key: 'state', valueType: 'string' },
          { key: 'door', valueType: 'boolean' },
        ],
      })
    ).devices;
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

  async function devicePage(locale: string): Promise<Page> {
    const { page } = await newConsolePage(browser, server.httpUrl, locale);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/device/detail/${dev.tangramId}/telemetry-status`);
    return page;
  }

  it('shows the latest string and boolean values, newer ones live, and their history', async () => {
    const ts = Date.now() - 2_000;
    await publish([
      { key: 'temperature', ts, vs: [21.5] },
      { key: 'state', ts, vs: ['running'] },
      { key: 'door', ts, vs: [true] },
    ]);
    const page = await devicePage('en');
    await expect.poll(() => page.getByTestId('telemetry-value-state').textContent(), { timeout: 15_000 }).toBe('running');
    expect(await page.getByTestId('telemetry-value-door').textContent()).toBe('true');
    expect(await page.getByTestId('telemetry-value-temperature').textContent()).toBe('21.5');

    await publish([
      { key: 'state', ts: ts + 1_000, vs: ['stopped: door open'] },
      { key: 'door', ts: ts + 1_000, vs: [false] },
    ]);
    await expect.poll(() => page.getByTestId('telemetry-value-state').textContent(), { timeout: 15_000 }).toBe('stopped: door open');
    await expect.poll(() => page.getByTestId('telemetry-value-door').textContent(), { timeout: 15_000 }).toBe('false');
    await snap(page, 'telemetry-values-latest');

    // History: the points of each key, newest first, and the boolean's state timeline.
    await page.getByTestId('tab-history-chart').click();
    await page.waitForURL(/history-chart/);
    await pickOption(page, 'history-key', 'state');
    const table = page.getByTestId('value-history-table');
    await expect
      .poll(() => table.locator('tbody tr').allTextContents(), { timeout: 15_000 })
      .toEqual([expect.stringContaining('stopped: door open'), expect.stringContaining('running')]);
    await pickOption(page, 'history-key', 'door');
    await expect.poll(() => table.locator('tbody tr td:nth-child(2)').allTextContents(), { timeout: 15_000 }).toEqual(['false', 'true']);
    await expect.poll(async () => Number(await page.getByTestId('value-timeline').getAttribute('data-points'))).toBe(2);
    expect(await page.getByTestId('history-chart').count()).toBe(0);
    await snap(page, 'telemetry-values-history');
    await page.context().close();

    const zh = await devicePage('zh-TW');
    await expect.poll(() => zh.getByTestId('telemetry-value-door').textContent(), { timeout: 15_000 }).toBe('否 (false)');
    await zh.context().close();
  });
});
