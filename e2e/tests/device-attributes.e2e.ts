/**
 * A device's attributes in Chromium (docs/decisions/device-apis.md "Attributes"): the device publishes client
 * attributes with its access token, the vendor sees them on the device page, sets a shared attribute that reaches the
 * connected device at once, edits and deletes it; a user authorised to the device reads the attributes but has no form.
 */
import { deviceAttributePaths, paths, type TDeviceCredentials } from '@tessera/contracts';
import mqtt from 'mqtt';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorise,
  buildDeviceProject,
  buildUser,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltDevice,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, newConsolePage, newPage, snap } from '../support/browser.js';
import { login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe("a device's attributes (Chromium)", () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let dev: TBuiltDevice;
  let token = '';

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 })).devices;
    await authorise(server.ctx.db, dev.id, user.accountId);
    token = (await server.api<TDeviceCredentials>('POST', paths.deviceCredentials(dev.tangramId), { token: vendor.token })).body
      .access_token as string;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a vendor sees client attributes and sets, edits and deletes a shared one that reaches the device', async () => {
    const device = await mqtt.connectAsync(server.mqttUrl, { username: token, reconnectPeriod: 0, connectTimeout: 5_000 });
    const pushed: unknown[] = [];
    device.on('message', (_topic, payload) => pushed.push(JSON.parse(payload.toString())));
    await device.subscribeAsync('v1/devices/me/attributes', { qos: 1 });
    await device.publishAsync('v1/devices/me/attributes', JSON.stringify({ firmware: '2.0.1', battery: 91 }), { qos: 1 });

    const { page } = await newConsolePage(browser, server.httpUrl, 'en');
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/device/detail/${dev.tangramId}`);
    const card = page.getByTestId('attributes-card');
    await card.getByTestId('attribute-row-firmware').waitFor();
    expect(await card.getByTestId('attribute-row-firmware').textContent()).toContain('2.0.1');
    expect(await card.getByTestId('attribute-form').count()).toBe(0);

    await card.getByTestId('attribute-scope-shared').click();
    await card.getByTestId('attribute-key').fill('interval');
    await card.getByTestId('attribute-value').fill('30');
    await card.getByTestId('attribute-save').click();
    await card.getByTestId('attribute-row-interval').waitFor();
    // Issuing the token revoked the device's earlier sessions: the one opened with the new token stays.
    expect(device.connected).toBe(true);
    await expect.poll(() => pushed).toContainEqual({ interval: 30 });
    await snap(page, 'device-attributes');

    await card.getByTestId('attribute-edit-interval').click();
    await card.getByTestId('attribute-value').fill('{"every":60}');
    await card.getByTestId('attribute-save').click();
    await expect.poll(() => pushed).toContainEqual({ interval: { every: 60 } });
    await card.getByTestId('attribute-delete-interval').click();
    await page.getByTestId('attribute-delete-confirm').click();
    await card.getByTestId('attribute-row-interval').waitFor({ state: 'detached' });
    await expect.poll(() => pushed).toContainEqual({ deleted: ['interval'] });
    await page.close();
    await device.endAsync(true);
  });

  it('a user authorised to the device reads them, in Chinese, without the form', async () => {
    await server.api('POST', deviceAttributePaths.scope(dev.tangramId, 'server'), { token: vendor.token, body: { site: 'north' } });
    const { page } = await newPage(browser, server.httpUrl, 'zh-TW');
    await login(page, user.email, TEST_PASSWORD, 'user');
    await page.goto(`/device/detail/${dev.tangramId}`);
    const card = page.getByTestId('attributes-card');
    await card.getByTestId('attribute-row-battery').waitFor();
    expect(await card.getByTestId('attribute-scope-server').textContent()).toBe('伺服器');
    await card.getByTestId('attribute-scope-server').click();
    await card.getByTestId('attribute-row-site').waitFor();
    expect(await card.getByTestId('attribute-form').count()).toBe(0);
    expect(await card.getByTestId('attribute-delete-site').count()).toBe(0);
    await page.close();
  });
});
