/**
 * A device's client certificate in Chromium (docs/deployment.md "Certificate login"): the vendor opens "Certificate"
 * on the device page, sees none registered, is told a malformed fingerprint is not one, registers the certificate's
 * fingerprint as openssl prints it; the device then logs in over MQTT TLS with that certificate and no password;
 * revoking it (after a confirmation) drops the device and refuses the certificate. A user has no such button; in
 * English on a 390 px phone the dialog fits.
 */
import { readFileSync } from 'node:fs';
import { topics } from '@tessera/contracts';
import mqtt, { type IClientOptions } from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorise,
  buildDeviceProject,
  buildUser,
  buildVendor,
  certFingerprint,
  issueCert,
  makeCa,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltDevice,
  type TPemPair,
  type TTestServer,
  tlsScratchDir,
} from '@tessera/server/testing';
import { launchBrowser, newConsolePage, newPage, snap } from '../support/browser.js';
import { confirmDialog, login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe("a device's client certificate (Chromium)", () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let dev: TBuiltDevice;
  let ca: TPemPair;
  let deviceCert: TPemPair;

  const tlsLogin = (): Promise<mqtt.MqttClient> => {
    const options: IClientOptions = {
      username: dev.tangramId,
      clientId: `${dev.tangramId}-e2e`,
      ca: readFileSync(ca.cert),
      cert: readFileSync(deviceCert.cert),
      key: readFileSync(deviceCert.key),
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    };
    return mqtt.connectAsync(`mqtts://127.0.0.1:${server.mqttTlsPort}`, options);
  };

  /** Opens the device as the vendor in a fresh page, in `locale`, with the certificate dialog open. */
  async function vendorDialog(locale: string): Promise<Page> {
    const { page } = await newConsolePage(browser, server.httpUrl, locale);
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
    await page.goto(`/device/detail/${dev.tangramId}`);
    await page.getByTestId('device-certificate-open').click();
    await page.getByTestId('device-certificate-fingerprint').waitFor();
    return page;
  }

  beforeAll(async () => {
    const dir = tlsScratchDir();
    ca = makeCa(dir, 'ca');
    const serverCert = issueCert(dir, ca, 'server', 'localhost', 'server');
    server = await startE2eServer({ mqttTls: { port: 0, certFile: serverCert.cert, keyFile: serverCert.key, caFile: ca.cert } });
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    [dev] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 })).devices;
    await authorise(server.ctx.db, dev.id, user.accountId);
    deviceCert = issueCert(dir, ca, 'device', dev.tangramId, 'client');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a vendor registers the fingerprint, the device logs in with its certificate, revoking drops it', async () => {
    const page = await vendorDialog('zh-TW');
    expect(await page.getByTestId('device-certificate-fingerprint').textContent()).toBe('尚未登錄憑證');
    await expect(tlsLogin()).rejects.toThrow();

    await page.getByTestId('device-certificate-input').fill('12:34');
    expect(await page.getByTestId('device-certificate-register').isDisabled()).toBe(true);
    const fingerprint = certFingerprint(deviceCert.cert);
    const printed = `sha256 Fingerprint=${fingerprint.toUpperCase().match(/../g)?.join(':')}`;
    await page.getByTestId('device-certificate-input').fill(printed);
    await page.getByTestId('device-certificate-register').click();
    await page.getByTestId('device-certificate-fingerprint').filter({ hasText: fingerprint }).waitFor();
    await snap(page, 'device-certificate-registered');

    const device = await tlsLogin();
    await device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [21] }), {
      qos: 1,
    });
    const dropped = new Promise<void>((resolve) => device.once('close', () => resolve()));

    await page.getByTestId('device-certificate-revoke').click();
    await confirmDialog(page, 'device-certificate-revoke-confirm');
    await page.getByTestId('device-certificate-fingerprint').filter({ hasText: '尚未登錄憑證' }).waitFor();
    await dropped;
    await device.endAsync(true);
    await expect(tlsLogin()).rejects.toThrow();
    await page.close();
  });

  it('on a 390 px phone in English the dialog fits and explains a malformed fingerprint', async () => {
    const page = await vendorDialog('en');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.getByTestId('device-certificate-fingerprint').textContent()).toBe('No certificate registered');
    await page.getByTestId('device-certificate-input').fill('not a fingerprint');
    expect(await page.locator('.ant-modal-body').textContent()).toContain('64 hexadecimal digits');
    for (const testId of ['device-certificate-input', 'device-certificate-register', 'device-certificate-close']) {
      const box = await page.getByTestId(testId).boundingBox();
      expect(box, testId).not.toBeNull();
      expect(box!.x, testId).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, testId).toBeLessThanOrEqual(390);
    }
    await snap(page, 'device-certificate-phone');
    await page.close();
  });

  it('a user has no certificate button', async () => {
    const { page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW');
    await login(userPage, user.email, TEST_PASSWORD, 'user');
    await userPage.goto(`/device/detail/${dev.tangramId}`);
    await userPage.getByTestId('device-name').waitFor();
    expect(await userPage.getByTestId('device-certificate-open').count()).toBe(0);
    await userPage.close();
  });
});
