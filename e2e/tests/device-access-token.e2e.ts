/**
 * A device's access token in Chromium (docs/decisions/device-apis.md "Access tokens"): the vendor opens "Access
 * token" on the device page, sees none issued, issues one (shown once, with a mosquitto_pub example), sees it masked
 * afterwards, rotates it; the broker takes the shown token as a ThingsBoard login and drops it after the rotation. In
 * English on a 390 px phone the dialog fits; a user has no such button.
 */
import { createHash } from 'node:crypto';
import { deviceAccessTokens } from '@tessera/server';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
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
import { confirmDialog, login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe("a device's access token (Chromium)", () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let dev: TBuiltDevice;

  const storedHash = async () =>
    (await server.ctx.db.select().from(deviceAccessTokens).where(eq(deviceAccessTokens.deviceId, dev.id)))[0]?.tokenHash;

  /** Opens the device as the vendor in a fresh page, in `locale`. */
  async function vendorPage(locale: string): Promise<Page> {
    const { page } = await newConsolePage(browser, server.httpUrl, locale);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/device/detail/${dev.tangramId}`);
    await page.getByTestId('device-token-open').waitFor();
    return page;
  }

  /** Issues or rotates from the open dialog; answers the token shown once. */
  async function issue(page: Page): Promise<string> {
    await page.getByTestId('device-token-rotate').click();
    await confirmDialog(page, 'device-token-confirm');
    const value = page.getByTestId('device-token-value');
    await value.waitFor();
    return (await value.textContent()) ?? '';
  }

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 })).devices;
    await authorise(server.ctx.db, dev.id, user.accountId);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a vendor issues a token shown once, sees it masked, rotates it; the broker follows', async () => {
    const page = await vendorPage('zh-TW');
    await page.getByTestId('device-token-open').click();
    expect(await page.getByTestId('device-token-masked').textContent()).toBe('尚未核發');

    const token = await issue(page);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await storedHash()).toBe(sha256(token));
    expect(await page.getByTestId('device-token-new').textContent()).toContain(`-u ${token}`);
    await snap(page, 'device-token-shown');
    const client = await mqtt.connectAsync(server.mqttUrl, { username: token, reconnectPeriod: 0, connectTimeout: 5_000 });
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 22 }), { qos: 1 });
    const dropped = new Promise<void>((resolve) => client.once('close', () => resolve()));

    // Closing forgets the token; opening again shows it masked.
    await page.getByTestId('device-token-close').click();
    await page.getByTestId('device-token-close').waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(token);
    await page.getByTestId('device-token-open').click();
    expect(await page.getByTestId('device-token-masked').textContent()).toBe(`••••••••${token.slice(-4)}`);
    expect(await page.getByTestId('device-token-value').count()).toBe(0);

    const rotated = await issue(page);
    expect(rotated).not.toBe(token);
    await dropped;
    expect(await storedHash()).toBe(sha256(rotated));
    await page.close();
  });

  it('on a 390 px phone in English the dialog fits; a user has no access-token button', async () => {
    const page = await vendorPage('en');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('device-token-open').click();
    await page.getByTestId('device-token-rotate').click();
    expect(await page.locator('.ant-modal-confirm').textContent()).toContain('clients connected with the old token are disconnected now');
    await confirmDialog(page, 'device-token-confirm');
    await page.getByTestId('device-token-value').waitFor();
    expect(await page.getByTestId('device-token-new').textContent()).toContain('it will not be shown again');
    for (const testId of ['device-token-value', 'device-token-close', 'device-token-masked']) {
      const box = await page.getByTestId(testId).boundingBox();
      expect(box, testId).not.toBeNull();
      expect(box!.x, testId).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, testId).toBeLessThanOrEqual(390);
    }
    await snap(page, 'device-token-phone');
    await page.close();

    const { page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW');
    await login(userPage, user.email, TEST_PASSWORD, 'user');
    await userPage.goto(`/device/detail/${dev.tangramId}`);
    await userPage.getByTestId('device-name').waitFor();
    expect(await userPage.getByTestId('device-token-open').count()).toBe(0);
    await userPage.close();
  });
});
