/**
 * The device detail in Chromium: getDeviceInfo and a sensor read answered by the real simulator, the offline
 * and timeout messages, a user's app rules (add, edit, delete; on a text key only its operators, the rule made there
 * firing on a real device's value), the push switch kept across a reload, clean-data
 * with a wrong then the right password (only that device's data goes), and the device update failure dialog.
 */
import { deviceClientId, deviceControlPaths, topics } from '@tessera/contracts';
import { SIM_FIRMWARE_VERSION, startSimulator, type TSimulator } from '@tessera/device-sim';
import { count, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, deviceUserRules, telemetry } from '@tessera/server';
import {
  authorise,
  buildDeviceProject,
  type TBuiltDevice,
  buildUser,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
} from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login, pickOption, publishAsDevice } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('device detail: remote control, app rules, push switch, clean-data, update failure (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendorPage: Page;
  let userPage: Page;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let devs: TBuiltDevice[];
  let sim: TSimulator | null = null;

  const pointsOf = async (device: TBuiltDevice) =>
    (await server.ctx.db.select({ n: count() }).from(telemetry).where(eq(telemetry.deviceId, device.id)))[0].n;

  beforeAll(async () => {
    server = await startE2eServer({ commandTimeoutMs: 2000 });
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    devs = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 })).devices;
    await authorise(server.ctx.db, devs[0].id, user.accountId);
    sim = await startSimulator({
      url: server.mqttUrl,
      devices: [{ ...devs[0], keys: ['temperature', 'humidity'] }],
      rateHz: 1,
      statusPeriodMs: 60_000,
    });
    ({ page: vendorPage } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(vendorPage, vendor.email, TEST_PASSWORD, 'vendor');
    ({ page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(userPage, user.email, TEST_PASSWORD, 'user');
  });
  afterAll(async () => {
    await sim?.stop();
    await browser?.close();
    await server?.stop();
  });

  it('getDeviceInfo and a sensor read are answered by the simulator and shown, and listed as recent commands', async () => {
    const page = vendorPage;
    await page.goto(`/device/detail/${devs[0].tangramId}/remote-control`);
    await page.getByTestId('control-get-info').click();
    await expect.poll(() => page.getByTestId('device-info-firmware').textContent()).toBe(SIM_FIRMWARE_VERSION);
    expect(await page.getByTestId('device-info-rssi').textContent()).toMatch(/^-\d+ dBm$/);
    expect(await page.getByTestId('device-info-uptime').textContent()).toMatch(/^0 天 00:0\d:\d\d$/);
    const sensorRows = page.getByTestId('device-info-sensors').locator('tbody tr');
    expect(await sensorRows.allTextContents()).toEqual([expect.stringContaining('temperature'), expect.stringContaining('humidity')]);
    expect(await sensorRows.first().textContent()).toContain('1 s');

    await page.getByTestId('sensor-command-send').click();
    await expect.poll(() => page.getByTestId('sensor-command-value').textContent()).toMatch(/^\d+(\.\d+)?$/);
    await page.getByTestId('command-row-sensorCommand-ok').waitFor();
    await page.getByTestId('command-row-getDeviceInfo-ok').waitFor();
    expect(await page.getByTestId('command-log').textContent()).toContain(vendor.email);
    await snap(page, 'device-remote-control');
  });

  it('a stopped device is reported offline; a connected device that stays silent times out with a clear message', async () => {
    const page = vendorPage;
    await sim?.stop();
    sim = null;
    await page.getByTestId('control-get-info').click();
    await expect.poll(() => page.getByTestId('command-error').textContent()).toContain('裝置未連線，指令未送出。');

    // Connected and subscribed to its commands, but never answering (hung firmware).
    const silent = await mqtt.connectAsync(server.mqttUrl, {
      username: devs[0].tangramId,
      password: devs[0].secret,
      clientId: devs[0].tangramId,
      reconnectPeriod: 0,
    });
    try {
      await silent.subscribeAsync(`devices/${devs[0].tangramId}/commands/+`, { qos: 1 });
      await page.getByTestId('control-get-info').click();
      await page.getByText('等待裝置回應中…').waitFor();
      await expect.poll(() => page.getByTestId('command-error').textContent(), { timeout: 10_000 }).toContain('裝置未在時限內回應。');
      await page.getByTestId('command-row-getDeviceInfo-timeout').waitFor();
      await snap(page, 'device-remote-control-timeout');
    } finally {
      await silent.endAsync();
    }
  });

  it('a user adds, edits and deletes an app rule; the vendor sees it read-only', async () => {
    const page = userPage;
    await page.goto(`/device/detail/${devs[0].tangramId}/app-rules`);
    await page.getByText('沒有 App 規則').waitFor();
    await page.getByTestId('app-rule-add').click();
    await page.getByTestId('app-rule-name').fill('太熱了');
    await page.getByTestId('app-rule-threshold').fill('30');
    await page.getByTestId('app-rule-save').click();
    const row = page.getByTestId('app-rule-row-太熱了');
    await row.waitFor();
    expect(await row.textContent()).toContain('temperature > 30');

    await page.reload();
    await page.getByTestId('app-rule-edit-太熱了').click();
    await page.getByTestId('app-rule-name').fill('很熱');
    await page.getByTestId('app-rule-threshold').fill('35.5');
    await page.getByTestId('app-rule-save').click();
    await page.getByTestId('app-rule-row-很熱').waitFor();
    expect(await page.getByTestId('app-rule-row-很熱').textContent()).toContain('temperature > 35.5');
    await snap(page, 'device-app-rules');

    await vendorPage.goto(`/device/detail/${devs[0].tangramId}/app-rules`);
    await vendorPage.getByTestId('app-rules-readonly').waitFor();
    await vendorPage.getByTestId('app-rule-row-很熱').waitFor();
    expect(await vendorPage.getByTestId('app-rule-row-很熱').textContent()).toContain(user.email);
    expect(await vendorPage.getByTestId('app-rule-add').count()).toBe(0);
    expect(await vendorPage.getByTestId('app-rule-edit-很熱').count()).toBe(0);

    await page.getByTestId('app-rule-delete-很熱').click();
    await page.getByTestId('app-rule-delete-confirm').click();
    await page.getByText('沒有 App 規則').waitFor();
    await page.reload();
    await page.getByText('沒有 App 規則').waitFor();
  });

  it('an app rule on a text key offers only equals / contains / changed, and fires on the device’s value', async () => {
    const page = userPage;
    const [dev] = (
      await buildDeviceProject(server.ctx.db, {
        tenantId: vendor.tenantId,
        count: 1,
        sensors: [{ key: 'temperature' }, { key: 'state', valueType: 'string' }, { key: 'door', valueType: 'boolean' }],
      })
    ).devices;
    await authorise(server.ctx.db, dev.id, user.accountId);
    await page.goto(`/device/detail/${dev.tangramId}/app-rules`);
    await page.getByTestId('app-rule-add').click();
    /** The texts of the open select's options. */
    const openOptions = async (testId: string) => {
      await page.getByTestId(testId).click();
      const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
      await options.first().waitFor();
      const texts = await options.allTextContents();
      await page.keyboard.press('Escape');
      return texts;
    };
    await pickOption(page, 'app-rule-key', /^temperature$/);
    expect(await openOptions('app-rule-op')).toEqual(['>', '≥', '<', '≤', '=', '≠']);
    await pickOption(page, 'app-rule-key', /^door$/);
    expect(await openOptions('app-rule-op')).toEqual(['等於', '變化']);
    await pickOption(page, 'app-rule-key', /^state$/);
    expect(await openOptions('app-rule-op')).toEqual(['等於', '包含', '變化']);
    expect(await page.getByTestId('app-rule-threshold').count()).toBe(0);
    expect(await page.getByTestId('app-rule-slot').count()).toBe(0);
    await page.getByTestId('app-rule-name').fill('故障');
    await page.getByTestId('app-rule-value').fill('fault');
    await snap(page, 'device-app-rule-text-key');
    await page.getByTestId('app-rule-save').click();
    const row = page.getByTestId('app-rule-row-故障');
    await row.waitFor();
    expect(await row.textContent()).toContain('state 等於 "fault"');
    const [rule] = await server.ctx.db.select().from(deviceUserRules).where(eq(deviceUserRules.deviceId, dev.id));
    expect(rule).toMatchObject({ key: 'state', op: 'equals', value: 'fault', threshold: null });

    const ts = Date.now() - 5_000;
    const device = await mqtt.connectAsync(server.mqttUrl, {
      username: dev.tangramId,
      password: dev.secret,
      clientId: deviceClientId(dev.tangramId, 'e2e-state'),
      reconnectPeriod: 0,
    });
    const points = [
      { key: 'state', ts, vs: ['idle'] },
      { key: 'state', ts: ts + 1_000, vs: ['fault'] },
    ];
    await device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify(points), { qos: 1 });
    await device.endAsync();
    const opened = () =>
      server.ctx.db.select({ message: alerts.message, state: alerts.state }).from(alerts).where(eq(alerts.deviceId, dev.id));
    await expect.poll(opened, { timeout: 15_000 }).toEqual([{ message: 'state equals "fault"', state: 'open' }]);
  });

  it('the push switch is kept per account across a reload, and turns off', async () => {
    const page = userPage;
    // Turning it on needs a push service, which headless Chromium has none of (web-push.e2e.ts): set it as another
    // browser of this account would have.
    const on = await server.api('PUT', deviceControlPaths.fcmStatus, {
      token: user.token,
      body: { tangram_id: devs[0].tangramId, enabled: true },
    });
    expect(on.status).toBe(200);
    await page.goto(`/device/detail/${devs[0].tangramId}/telemetry-status`);
    const toggle = page.getByTestId('fcm-switch');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    // The vendor's own switch for the same device is still off.
    await vendorPage.goto(`/device/detail/${devs[0].tangramId}/telemetry-status`);
    await expect.poll(() => vendorPage.getByTestId('fcm-switch').getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await page.reload();
    await expect.poll(() => page.getByTestId('fcm-switch').getAttribute('aria-checked')).toBe('false');
  });

  it('clean-data: a wrong password is refused, the right one deletes only this device’s data and says how much', async () => {
    const page = vendorPage;
    const ts = Date.now() - 60_000;
    await publishAsDevice(server.mqttUrl, devs[0].tangramId, devs[0].secret, [{ key: 'temperature', ts, vs: [21] }]);
    await publishAsDevice(server.mqttUrl, devs[1].tangramId, devs[1].secret, [{ key: 'temperature', ts, vs: [22] }]);
    const before = await pointsOf(devs[0]);
    expect(before).toBeGreaterThan(0);
    expect(await pointsOf(devs[1])).toBe(1);

    await page.goto(`/device/detail/${devs[0].tangramId}/remote-control`);
    await page.getByTestId('clean-data-open').click();
    await page.getByTestId('clean-data-password').fill('Wrong#2026ok');
    await page.getByTestId('clean-data-submit').click();
    await expect.poll(() => page.getByTestId('clean-data-error').textContent()).toBe('密碼錯誤');
    expect(await pointsOf(devs[0])).toBe(before);

    await page.getByTestId('clean-data-password').fill(TEST_PASSWORD);
    await page.getByTestId('clean-data-submit').click();
    await expect.poll(() => page.getByTestId('clean-data-result').textContent()).toContain(`已刪除 ${before} 筆遙測資料`);
    expect(await pointsOf(devs[0])).toBe(0);
    expect(await pointsOf(devs[1])).toBe(1);
    await snap(page, 'device-clean-data');
  });

  it('a failed device update shows the error dialog with its title and the server message; a valid one saves', async () => {
    const page = vendorPage;
    await page.goto(`/device/detail/${devs[1].tangramId}/telemetry-status`);
    // One past the name bound (32), forced past the form's own check as a script would send it.
    await page.route(`**/frontstage/v1/devices/${devs[1].tangramId}`, (route) =>
      route.request().method() === 'PUT' ? route.continue({ postData: JSON.stringify({ name: 'x'.repeat(33) }) }) : route.continue(),
    );
    await page.getByTestId('device-edit').click();
    await page.getByTestId('device-edit-name').fill('鍋爐 1 號');
    await page.getByTestId('device-edit-save').click();
    const dialog = page.locator('.ant-modal-confirm-error');
    await dialog.waitFor();
    expect(await dialog.locator('.ant-modal-confirm-title').textContent()).toBe('裝置更新失敗');
    expect(await page.getByTestId('error-dialog-message').textContent()).toContain('32');
    await snap(page, 'device-update-failure');
    await page.getByTestId('error-dialog-confirm').click();
    await page.unroute(`**/frontstage/v1/devices/${devs[1].tangramId}`);

    await page.getByTestId('device-edit-nickname').fill('一號爐');
    await page.getByTestId('device-edit-save').click();
    await expect.poll(() => page.getByTestId('device-name').textContent()).toBe('鍋爐 1 號');
    await page.reload();
    await expect.poll(() => page.getByTestId('device-nickname').textContent()).toBe('一號爐');
  });
});
