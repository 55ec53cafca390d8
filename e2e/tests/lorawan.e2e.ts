/**
 * LoRaWAN in Chromium, in English, as a vendor sets it up: the device's DevEUI on its page, a ChirpStack integration
 * on the project's notification tab with its URL and secret shown once, then an uplink posted to that URL as
 * ChirpStack would, seen stored in the integration's last payloads; and an integration over ChirpStack's MQTT
 * integration (a Mosquitto of the test's own as ChirpStack's broker): the broker entered in the dialog, the
 * connection shown, an uplink ChirpStack publishes seen stored.
 */
import { LORAWAN_SECRET_HEADER } from '@tessera/contracts';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDeviceProject,
  buildVendor,
  startMosquitto,
  TEST_PASSWORD,
  type TBuiltProject,
  type TMosquitto,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, newConsolePage } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('LoRaWAN integrations in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let project: TBuiltProject;
  let broker: TMosquitto;

  beforeAll(async () => {
    broker = await startMosquitto({ users: { tessera: 'tessera-pass', chirpstack: 'chirpstack-pass' } });
    server = await startE2eServer();
    browser = await launchBrowser();
    const vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    ({ page } = await newConsolePage(browser, server.httpUrl, 'en'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await broker?.stop();
  });

  it('gives a device its DevEUI, adds an integration, and lists a posted uplink as stored', async () => {
    const [device] = project.devices;
    await page.goto(`/device/detail/${device!.tangramId}`);
    await page.getByTestId('device-deveui-open').click();
    await page.getByTestId('device-deveui-input').fill('01-01-01-01-01-01-01-0x');
    await page.getByText('16 hex digits, e.g. 70B3D57ED0000001').waitFor();
    await page.getByTestId('device-deveui-input').fill('0101010101010101');
    await page.getByTestId('device-deveui-save').click();
    await page.getByTestId('device-deveui-clear').waitFor();
    await page.keyboard.press('Escape');

    await page.goto(`/project/detail/${project.projectId}/notification`);
    const card = page.getByTestId('lorawan-card');
    await card.getByText('No integrations yet').waitFor();
    await page.getByTestId('lorawan-add').click();
    await page.getByTestId('lorawan-name').fill('Farm ChirpStack');
    await page.getByTestId('lorawan-save').click();
    const secret = (await page.getByTestId('lorawan-secret').textContent())?.trim() ?? '';
    const url = (await page.getByTestId('lorawan-secret-url').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^lwsec_/);
    expect(url).toMatch(/\/lorawan\/v1\/\d+\/chirpstack$/);
    await page.getByTestId('lorawan-secret-close').click();
    await card.getByTestId('lorawan-row-name').getByText('Farm ChirpStack').waitFor();
    expect(await card.textContent()).not.toContain(secret);

    const uplink = {
      time: new Date().toISOString(),
      deviceInfo: { deviceName: 'Test device', devEui: '0101010101010101' },
      fPort: 1,
      object: { temperature: 22.5, humidity: 40.2 },
    };
    const res = await fetch(`${url}?event=up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [LORAWAN_SECRET_HEADER]: secret },
      body: JSON.stringify(uplink),
    });
    expect(res.status).toBe(200);

    await card.getByTestId('lorawan-uplinks-open').click();
    const log = page.getByTestId('lorawan-uplinks');
    await log.getByTestId('lorawan-uplink-outcome').getByText('Stored · 2').waitFor({ timeout: 15_000 });
    expect(await log.textContent()).toContain('0101010101010101');
  });

  it("reads ChirpStack's MQTT integration: broker entered, connection shown, a published uplink stored", async () => {
    const appId = '17c82e96-be03-4f38-aef3-f83d48582d97';
    await page.goto(`/project/detail/${project.projectId}/notification`);
    const card = page.getByTestId('lorawan-card');
    await page.getByTestId('lorawan-add').click();
    await page.getByTestId('lorawan-name').fill('Farm over MQTT');
    await page.getByTestId('lorawan-transport').getByText('ChirpStack MQTT broker').click();
    await page.getByTestId('lorawan-mqtt-url').fill('http://not-a-broker');
    await page.getByTestId('lorawan-mqtt-application').fill(appId);
    await page.getByTestId('lorawan-save').click();
    await page.getByText('An mqtt:// or mqtts:// URL').waitFor();
    await page.getByTestId('lorawan-mqtt-url').fill(broker.url);
    await page.getByTestId('lorawan-mqtt-username').fill('tessera');
    await page.getByTestId('lorawan-mqtt-password').fill('tessera-pass');
    await page.getByTestId('lorawan-save').click();
    // No webhook secret to show: the row names the broker and shows the connection.
    await card.getByTestId('lorawan-row-broker').getByText(broker.url).waitFor();
    await card.getByTestId('lorawan-row-state').getByText('Connected').waitFor({ timeout: 20_000 });
    expect(await card.textContent()).not.toContain('tessera-pass');

    const chirpstack = await mqtt.connectAsync(broker.url, { username: 'chirpstack', password: 'chirpstack-pass', reconnectPeriod: 0 });
    const uplink = {
      time: new Date().toISOString(),
      deviceInfo: { applicationId: appId, deviceName: 'Test device', devEui: '0101010101010101' },
      fPort: 1,
      object: { temperature: 23.5 },
    };
    await chirpstack.publishAsync(`application/${appId}/device/0101010101010101/event/up`, JSON.stringify(uplink), { qos: 1 });
    await chirpstack.endAsync();
    const row = card.locator('tr', { hasText: 'Farm over MQTT' });
    await row.getByTestId('lorawan-uplinks-open').click();
    const log = page.getByTestId('lorawan-uplinks');
    await log.getByTestId('lorawan-uplink-outcome').getByText('Stored · 1').waitFor({ timeout: 15_000 });
  });
});
