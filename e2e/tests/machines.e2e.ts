/**
 * Machines in Chromium (zh-TW) against the real server: a vendor creates a machine configure of two components (after
 * the form's refusals), creates a machine binding two devices, and opens the machine page, which shows each
 * component's latest values and follows a new value live over MQTT; deleting the configure in use is refused with the
 * explanation, also when the list was stale and the server refuses; a user without the machine sees none and is sent
 * from the configure page to the equipment page, and sees it once granted.
 */
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineAuthz, machineComponents, machineConfigures, machines } from '@tessera/server';
import {
  buildDeviceProject,
  buildUser,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import commonZh from '../../apps/web/src/i18n/locales/common.zh-TW.json' with { type: 'json' };
import machinesZh from '../../apps/web/src/features/machines/locales/zh-TW.json' with { type: 'json' };
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { confirmDialog, login, pickOption, publishAsDevice } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const zh = machinesZh.machines;
const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), text);

describe('machines (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let built: TBuiltProject;
  let machineId = 0;

  const formErrors = () => page.locator('.ant-drawer .ant-form-item-explain-error').allTextContents();
  const publish = (i: number, points: { key: string; vs: number[] }[]) =>
    publishAsDevice(
      server.mqttUrl,
      built.devices[i].tangramId,
      built.devices[i].secret,
      points.map((p) => ({ ...p, ts: Date.now() })),
    );

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    await publish(0, [
      { key: 'current', vs: [1.25] },
      { key: 'vibration', vs: [0.5, 1.2, 0.3] },
    ]);
    await publish(1, [
      { key: 'temperature', vs: [41.5] },
      { key: 'humidity', vs: [55] },
    ]);
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('creates a machine configure with two components, after the form’s refusals', async () => {
    await page.getByTestId('menu-machine').click();
    await page.waitForURL(/\/machine\/configure$/);
    expect(await page.getByTestId('menu-machine').textContent()).toBe(commonZh.menu.machine);
    expect(await page.getByTestId('machine-tab-equipment').textContent()).toBe(commonZh.menu.equipment);
    await page.getByText(zh.configure.empty).waitFor();

    await page.getByTestId('configure-create').first().click();
    await page.getByTestId('configure-name').fill('空壓機');
    await page.getByTestId('configure-save').click();
    await expect.poll(formErrors).toEqual(expect.arrayContaining([commonZh.validation.required, zh.rules.product, zh.rules.keysMin]));

    await page.getByTestId('component-name-0').fill('馬達');
    await pickOption(page, 'component-product-0', 'Sensor box');
    await pickOption(page, 'component-keys-0', /\(current,/);
    await pickOption(page, 'component-keys-0', /\(vibration,/);
    await page.keyboard.press('Escape');
    await page.getByTestId('component-add').click();
    await page.getByTestId('component-name-1').fill('馬達');
    await pickOption(page, 'component-product-1', 'Sensor box');
    await pickOption(page, 'component-keys-1', /\(temperature,/);
    await pickOption(page, 'component-keys-1', /\(humidity,/);
    await page.keyboard.press('Escape');
    await page.getByTestId('configure-save').click();
    await expect.poll(formErrors).toEqual([zh.rules.componentNameTaken]);
    await page.getByTestId('component-name-1').fill('壓縮頭');
    await page.getByTestId('configure-save').click();
    await page.getByText(commonZh.common.saved).first().waitFor();

    const [configure] = await server.ctx.db.select().from(machineConfigures).where(eq(machineConfigures.tenantId, vendor.tenantId));
    const row = page.getByTestId(`configure-row-${configure.id}`);
    await expect.poll(() => row.textContent()).toContain('空壓機');
    expect(await row.textContent()).toContain('馬達');
    expect(await row.textContent()).toContain('壓縮頭');
    const parts = await server.ctx.db.select().from(machineComponents).where(eq(machineComponents.configureId, configure.id));
    expect(parts.map((p) => [p.name, p.keys]).sort()).toEqual([
      ['壓縮頭', ['temperature', 'humidity']],
      ['馬達', ['current', 'vibration']],
    ]);
    await page.getByTestId('configure-name').waitFor({ state: 'detached' });
    await snap(page, 'machine-configures');
  });

  it('creates a machine binding two devices and shows each component’s values, live', async () => {
    await page.getByTestId('machine-tab-equipment').click();
    await page.waitForURL(/\/machine\/equipment$/);
    await page.getByText(zh.instance.empty).waitFor();
    await page.getByTestId('instance-create').first().click();
    await pickOption(page, 'instance-configure', '空壓機');
    await page.getByTestId('instance-name').fill('空壓機一號');
    await page.getByTestId('instance-serial').fill('AC-0001');
    await page.getByTestId('instance-location').fill('二廠 B 棟');
    await pickOption(page, 'machine-class', zh.class.group1_rigid.label);
    await pickOption(page, 'binding-0', built.devices[0].tangramId.slice(-12));
    await page.keyboard.press('Escape');
    await pickOption(page, 'binding-1', built.devices[1].tangramId.slice(-12));
    await page.keyboard.press('Escape');
    await page.getByTestId('instance-save').click();
    await page.waitForURL(/\/machine\/equipment\/\d+$/);
    machineId = Number(page.url().split('/').pop());

    expect(await page.getByTestId('machine-name').textContent()).toBe('空壓機一號');
    expect(await page.getByTestId('machine-class-label').textContent()).toBe(zh.class.group1_rigid.label);
    const parts = await server.ctx.db.select().from(machineComponents);
    const motor = parts.find((p) => p.name === '馬達')!;
    const head = parts.find((p) => p.name === '壓縮頭')!;
    const value = (componentId: number, key: string) => page.getByTestId(`component-value-${componentId}-${key}`).textContent();
    await expect.poll(() => value(motor.id, 'current')).toBe('1.25 A');
    expect(await value(motor.id, 'vibration')).toBe('0.5 / 1.2 / 0.3 mm/s');
    expect(await value(head.id, 'temperature')).toBe('41.5 °C');
    expect(await value(head.id, 'humidity')).toBe('55 %');
    expect(await page.getByTestId(`component-device-${motor.id}`).getAttribute('href')).toBe(
      `/device/detail/${built.devices[0].tangramId}/telemetry-status`,
    );
    await page.getByText(zh.page.noAlerts).waitFor();

    // A new point reaches the page over the live channel, without a reload.
    await expect.poll(() => page.getByTestId('live-state').getAttribute('data-state')).toBe('connected');
    await publish(0, [{ key: 'current', vs: [1.75] }]);
    await expect.poll(() => value(motor.id, 'current')).toBe('1.75 A');
    // The motor's vibration is judged by ISO 10816-3 for the machine's class (group 1, rigid: C from 4.5 mm/s), live.
    const zone = () => page.getByTestId(`component-zone-${motor.id}`).getAttribute('data-zone');
    expect(await zone()).toBe('A');
    await publish(0, [{ key: 'vibration', vs: [3.0, 4.8, 1.0] }]);
    await expect.poll(zone).toBe('C');
    expect(await page.getByTestId(`component-health-${motor.id}`).getAttribute('href')).toBe(
      `/device/detail/${built.devices[0].tangramId}/motor-health`,
    );
    await snap(page, 'machine-page');
  });

  it('refuses to delete the configure in use, explaining why — from the list and when the server refuses', async () => {
    const [configure] = await server.ctx.db.select().from(machineConfigures).where(eq(machineConfigures.name, '空壓機'));
    await page.goto('/machine/configure');
    await page.getByTestId(`configure-delete-${configure.id}`).click();
    await expect.poll(() => page.getByTestId('configure-in-use').textContent()).toBe(fill(zh.configure.inUseContent, { count: 1 }));
    await confirmDialog(page, 'configure-in-use-ok');

    // A second configure, unused when the list loads, gets a machine behind the page's back: the server refuses.
    const [spare] = await server.ctx.db
      .insert(machineConfigures)
      .values({ tenantId: vendor.tenantId, name: '冷卻塔', updatedAt: Date.now() })
      .returning();
    await server.ctx.db
      .insert(machineComponents)
      .values({ configureId: spare.id, name: '風扇', productId: built.productId, keys: ['current'], position: 0 });
    await page.reload();
    await page.getByTestId(`configure-delete-${spare.id}`).waitFor();
    await server.ctx.db.insert(machines).values({ tenantId: vendor.tenantId, configureId: spare.id, name: '冷卻塔一號' });
    await page.getByTestId(`configure-delete-${spare.id}`).click();
    await confirmDialog(page, 'configure-delete-confirm');
    const refusal = `the machine configure "冷卻塔" is used by 1 machine(s); delete them before deleting it`;
    await expect.poll(() => page.getByTestId('configure-in-use').textContent()).toBe(fill(zh.configure.inUseRefused, { message: refusal }));
    await confirmDialog(page, 'configure-in-use-ok');
    expect(await server.ctx.db.select().from(machineConfigures).where(eq(machineConfigures.id, spare.id))).toHaveLength(1);
  });

  it('a user without the machine sees none and is sent from the configure page to the equipment page; granted, sees it', async () => {
    const { context, page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW');
    await login(userPage, user.email, TEST_PASSWORD, 'user');
    await userPage.goto('/machine/configure');
    await userPage.waitForURL(/\/machine\/equipment$/);
    await userPage.getByText(zh.instance.emptyUser).waitFor();
    expect(await userPage.getByTestId('machine-tab-configure').count()).toBe(0);
    expect(await userPage.getByTestId('instance-create').count()).toBe(0);
    await userPage.goto(`/machine/equipment/${machineId}`);
    await userPage.getByTestId('page-not-found').waitFor();

    await server.ctx.db.insert(machineAuthz).values({ machineId, accountId: user.accountId });
    await userPage.goto('/machine/equipment');
    await userPage.getByTestId(`instance-open-${machineId}`).click();
    await expect.poll(() => userPage.getByTestId('machine-name').textContent()).toBe('空壓機一號');
    await snap(userPage, 'machine-page-user');
    await context.close();
  });
});
