/**
 * Regenerating a device's MQTT secret in Chromium (docs/decisions/devices-bulk.md "Regenerating a device's secret"):
 * the vendor opens the device, regenerates by keyboard and by mouse, confirms, copies the secret shown once; a device
 * connected with the old secret is dropped, the old secret is refused and the new one accepted by the broker. On a
 * 390 px phone in English the dialogs fit the screen; a user has no such button.
 */
import { createHash } from 'node:crypto';
import { deviceClientId } from '@tessera/contracts';
import { devices } from '@tessera/server';
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

/** Logs in as device `tangramId`; answers the connected client, or the CONNACK refusal code. */
async function connectDevice(url: string, tangramId: string, secret: string): Promise<mqtt.MqttClient | number> {
  try {
    return await mqtt.connectAsync(url, {
      username: tangramId,
      password: secret,
      clientId: deviceClientId(tangramId, `e2e-${Date.now()}`),
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

/** The CONNACK code of a login with `secret`: 0 accepted (the client is closed again), 5 not authorised. */
async function loginCode(url: string, tangramId: string, secret: string): Promise<number> {
  const answer = await connectDevice(url, tangramId, secret);
  if (typeof answer === 'number') return answer;
  await answer.endAsync();
  return 0;
}

describe("regenerating a device's MQTT secret (Chromium)", () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let dev: TBuiltDevice;

  const storedHash = async () => (await server.ctx.db.select().from(devices).where(eq(devices.id, dev.id)))[0].secretHash;

  /** Opens the device as the vendor in a fresh page. */
  async function vendorPage(locale: string): Promise<Page> {
    const { page, context } = await newConsolePage(browser, server.httpUrl, locale);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.httpUrl });
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/device/detail/${dev.tangramId}`);
    await page.getByTestId('device-secret-regenerate').waitFor();
    return page;
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

  it('a vendor regenerates, confirms and copies the new secret; the broker drops the old one and takes the new', async () => {
    const page = await vendorPage('zh-TW');
    const before = await storedHash();

    // By keyboard: Enter opens the confirmation, Escape leaves everything as it was.
    await page.getByTestId('device-secret-regenerate').focus();
    await page.keyboard.press('Enter');
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('裝置將立刻中斷連線，必須以新金鑰重新設定後才能再次連線');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await storedHash()).toBe(before);

    const connected = await connectDevice(server.mqttUrl, dev.tangramId, dev.secret);
    if (typeof connected === 'number') throw new Error(`the device could not log in before the rotation (CONNACK ${connected})`);
    const dropped = new Promise<void>((resolve) => connected.once('close', () => resolve()));

    await page.getByTestId('device-secret-regenerate').click();
    await confirmDialog(page, 'device-secret-confirm');
    const value = page.getByTestId('device-secret-value');
    await value.waitFor();
    const secret = (await value.textContent()) ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe(dev.secret);
    expect(await page.getByTestId('device-secret-warning').textContent()).toContain('此金鑰不會再次顯示');
    expect(await storedHash()).toBe(sha256(secret));
    await dropped;

    await page.getByTestId('device-secret-copy').click();
    await page.getByTestId('device-secret-copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await snap(page, 'device-secret-shown');

    expect(await loginCode(server.mqttUrl, dev.tangramId, dev.secret)).toBe(5);
    expect(await loginCode(server.mqttUrl, dev.tangramId, secret)).toBe(0);

    await page.getByTestId('device-secret-done').click();
    await value.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    dev = { ...dev, secret };
    await page.close();
  });

  it('on a 390 px phone in English both dialogs fit the screen; a user has no regenerate button', async () => {
    const page = await vendorPage('en');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('device-secret-regenerate').click();
    expect(await page.locator('.ant-modal-confirm').textContent()).toContain(
      'disconnected now and can connect again only after it has been reconfigured',
    );
    await confirmDialog(page, 'device-secret-confirm');
    const value = page.getByTestId('device-secret-value');
    await value.waitFor();
    const secret = (await value.textContent()) ?? '';
    expect(await page.getByTestId('device-secret-warning').textContent()).toContain('will not be shown again');
    for (const testId of ['device-secret-value', 'device-secret-copy', 'device-secret-done']) {
      const box = await page.getByTestId(testId).boundingBox();
      expect(box, testId).not.toBeNull();
      expect(box!.x, testId).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, testId).toBeLessThanOrEqual(390);
    }
    await snap(page, 'device-secret-phone');
    expect(await loginCode(server.mqttUrl, dev.tangramId, dev.secret)).toBe(5);
    expect(await loginCode(server.mqttUrl, dev.tangramId, secret)).toBe(0);
    await page.close();

    const { page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW');
    await login(userPage, user.email, TEST_PASSWORD, 'user');
    await userPage.goto(`/device/detail/${dev.tangramId}`);
    await userPage.getByTestId('device-name').waitFor();
    expect(await userPage.getByTestId('device-secret-regenerate').count()).toBe(0);
    await userPage.close();
  });
});
