/**
 * End to end in Chromium against the real server, with two browser contexts: a user asks for a device by Tangram ID;
 * the vendor allows it with a note; the device appears on the user's list without a reload and its values stream
 * live. The vendor revokes it: the user's live stream stops at once and the device leaves the list. A second request
 * is denied with a note the user reads; the history filters by state. A device of a QR-code project: the vendor
 * opens its authorisation QR code, whose link opens the user's request form filled in with the device and its code.
 */
import { authzPaths, type TAuthzRequestList } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '@tessera/server';
import {
  buildAccount,
  buildDeviceProject,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { confirmDialog, login, publishAsDevice } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('authorisation requests: ask, allow, live, revoke, deny, history, QR code (Chromium, two contexts)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendorPage: Page;
  let userPage: Page;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let built: TBuiltProject;
  let qrBuilt: TBuiltProject;

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    qrBuilt = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 });
    await server.ctx.db.update(projects).set({ deviceAuthzMethod: 'qrcode' }).where(eq(projects.id, qrBuilt.projectId));
    user = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId });
    browser = await launchBrowser();
    ({ page: vendorPage } = await newPage(browser, server.httpUrl, 'zh-TW'));
    ({ page: userPage } = await newPage(browser, server.httpUrl, 'en'));
    await login(vendorPage, vendor.email, TEST_PASSWORD, 'vendor');
    await login(userPage, user.email, TEST_PASSWORD, 'user');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const requestsOf = async (status: string) =>
    (await server.api<TAuthzRequestList>('GET', `${authzPaths.requests}?status=${status}`, { token: vendor.token })).body.data;
  const [first, second] = [0, 1];

  it('a user asks for a device by its Tangram ID and sees the request pending', async () => {
    await userPage.getByTestId('menu-authorisation').click();
    await userPage.waitForURL(/\/self-auth\/devce-auth$/);
    await userPage.getByText('尚無申請').waitFor();
    await userPage.getByTestId('authz-device').fill(built.devices[first].tangramId.toLowerCase());
    await userPage.getByTestId('authz-message').fill('Night shift on line 1');
    await userPage.getByTestId('authz-ask').click();
    const [pending] = await (async () => {
      await expect.poll(async () => (await requestsOf('pending')).length).toBe(1);
      return requestsOf('pending');
    })();
    await userPage.getByTestId(`authz-state-${pending.id}`).filter({ hasText: '待回覆' }).waitFor();
    // Asking again for the same device is refused while the first waits.
    await userPage.getByTestId('authz-device').fill(built.devices[first].tangramId);
    await userPage.getByTestId('authz-ask').click();
    await userPage.getByText('已有相同的申請正在等待回覆').waitFor();
  });

  it('the vendor allows it with a note; the device appears on the user’s list without a reload and streams live', async () => {
    await userPage.goto('/device/list');
    await userPage.getByTestId('device-table').waitFor();
    expect(await userPage.getByTestId(`device-row-${built.devices[first].tangramId}`).count()).toBe(0);

    await vendorPage.getByTestId('menu-authorisation').click();
    const [pending] = await requestsOf('pending');
    await vendorPage.getByTestId(`authz-pending-row-${pending.id}`).filter({ hasText: 'Night shift on line 1' }).waitFor();
    await vendorPage.getByTestId(`authz-allow-${pending.id}`).click();
    await vendorPage.getByTestId('authz-note').fill('OK until March');
    await confirmDialog(vendorPage, 'authz-decide-ok');
    await vendorPage.getByTestId(`authz-holder-row-${pending.id}`).waitFor();
    await snap(vendorPage, 'authorisation-vendor');

    // The user's console hears of the change on its access topic and refetches: no reload.
    await userPage.getByTestId(`device-row-${built.devices[first].tangramId}`).waitFor({ timeout: 10_000 });
    await userPage.goto(`/device/detail/${built.devices[first].tangramId}/telemetry-status`);
    await expect.poll(() => userPage.getByTestId('live-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('connected');
    const { tangramId, secret } = built.devices[first];
    await publishAsDevice(server.mqttUrl, tangramId, secret, [{ key: 'temperature', ts: Date.now(), vs: [23.5] }]);
    await expect.poll(() => userPage.getByTestId('telemetry-value-temperature').textContent(), { timeout: 15_000 }).toContain('23.5');
  });

  it('revoking stops the user’s live stream at once and takes the device off the list', async () => {
    const [allowed] = await requestsOf('allowed');
    await vendorPage.getByTestId(`authz-revoke-${allowed.id}`).click();
    await confirmDialog(vendorPage, 'authz-decide-ok');
    await vendorPage.getByText('尚無人經由申請取得權限').waitFor();

    const { tangramId, secret } = built.devices[first];
    // The page is told, refetches and says the device is not (or no longer) visible; a value published now never shows.
    await userPage.getByTestId('page-not-found').waitFor({ timeout: 10_000 });
    await publishAsDevice(server.mqttUrl, tangramId, secret, [{ key: 'temperature', ts: Date.now(), vs: [99.5] }]);
    await userPage.waitForTimeout(1_500);
    expect(await userPage.getByText('99.5').count()).toBe(0);
    await userPage.goto('/device/list');
    await userPage.getByTestId('device-table').waitFor();
    expect(await userPage.getByTestId(`device-row-${tangramId}`).count()).toBe(0);
  });

  it('a denied request shows the owner’s note to the user; the history filters by state', async () => {
    await userPage.goto('/self-auth/devce-auth');
    await userPage.getByTestId('authz-device').fill(built.devices[second].tangramId);
    await userPage.getByTestId('authz-ask').click();
    await expect.poll(async () => (await requestsOf('pending')).length).toBe(1);
    const [pending] = await requestsOf('pending');

    await vendorPage.reload();
    await vendorPage.getByTestId(`authz-deny-${pending.id}`).click();
    await vendorPage.getByTestId('authz-note').fill('Not your line');
    await confirmDialog(vendorPage, 'authz-decide-ok');
    await vendorPage.getByText('目前沒有待回覆的申請').waitFor();

    const row = userPage.getByTestId(`authz-request-row-${pending.id}`);
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('Not your line');
    expect(await userPage.getByTestId(`authz-state-${pending.id}`).getAttribute('data-state')).toBe('denied');

    await vendorPage.goto('/self-auth/history');
    await expect.poll(() => vendorPage.locator('[data-testid^="authz-history-row-"]').count()).toBe(2);
    await vendorPage.getByTestId('authz-filter-state').click();
    await vendorPage.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '已拒絕' }).click();
    await expect.poll(() => vendorPage.locator('[data-testid^="authz-history-row-"]').count()).toBe(1);
    expect(await vendorPage.getByTestId(`authz-history-row-${pending.id}`).textContent()).toContain('Not your line');
    await snap(vendorPage, 'authorisation-history');
  });

  it('a QR-code project: the vendor’s QR code opens the user’s form filled in with the device and its code', async () => {
    const { tangramId } = qrBuilt.devices[0];
    await userPage.goto('/self-auth/devce-auth');
    await userPage.getByTestId('authz-device').fill(tangramId);
    await userPage.getByTestId('authz-ask').click();
    await userPage.getByText('此裝置需要 QR 標籤或藍牙顯示的驗證碼').waitFor();

    await vendorPage.goto(`/device/detail/${tangramId}`);
    await vendorPage.getByTestId('authz-qr-open').click();
    const link = await (async () => {
      const qr = vendorPage.getByTestId('authz-qr');
      await qr.locator('canvas').waitFor();
      return (await qr.getAttribute('data-link')) ?? '';
    })();
    expect(link).toContain(`device=${tangramId}`);

    await userPage.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    expect(await userPage.getByTestId('authz-device').inputValue()).toBe(tangramId);
    expect((await userPage.getByTestId('authz-proof').inputValue()).length).toBeGreaterThan(10);
    await userPage.getByTestId('authz-ask').click();
    await expect.poll(async () => (await requestsOf('pending')).map((r) => r.device?.tangram_id)).toEqual([tangramId]);
  });

  it('the spec’s other spelling leads to the same page', async () => {
    await userPage.goto('/self-auth/device-auth?device=ABC');
    await userPage.waitForURL(/\/self-auth\/devce-auth\?device=ABC$/);
    expect(await userPage.getByTestId('authz-device').inputValue()).toBe('ABC');
  });
});
