/**
 * The device detail's motor-health tab in Chromium (zh-TW) against the real server: a device publishes two hours of
 * vibration velocity over MQTT (1 h in zone A, 30 min in B, 30 min in C for the default class, group 2 rigid); the tab
 * shows the latest reading's zone C, the default class, the chart and the hours per zone. Bound to a group-1 rigid
 * machine, the same readings are judged by the group-1 boundaries (latest in B, named machine). A device whose project
 * has no vibration key has no motor-health tab.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineBindings, machineComponents, machineConfigures, machines } from '@tessera/server';
import {
  buildDeviceProject,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TTestServer,
} from '@tessera/server/testing';
import devicesZh from '../../apps/web/src/features/devices/locales/zh-TW.json' with { type: 'json' };
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { login, publishAsDevice } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const MIN = 60_000;
const zh = devicesZh.devices.motorHealth;
/** Worst-axis velocity (mm/s) of minute i of the two published hours: 60 min at 1.0, 30 at 2.0, 30 at 3.0. */
const velocityAt = (i: number) => (i < 60 ? 1 : i < 90 ? 2 : 3);

describe('device detail: motor-health tab (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let built: TBuiltProject;

  const hoursOf = (zone: string) => page.getByTestId(`motor-health-hours-${zone}-value`).textContent();

  beforeAll(async () => {
    server = await startE2eServer();
    vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    const device = built.devices[0];
    // Whole minutes ending two minutes ago, so the last one holds its full minute inside the default 24-hour range.
    const first = Math.floor(Date.now() / MIN) * MIN - 121 * MIN;
    await publishAsDevice(
      server.mqttUrl,
      device.tangramId,
      device.secret,
      Array.from({ length: 120 }, (_, i) => ({ key: 'vibration', ts: first + i * MIN, vs: [velocityAt(i) / 2, velocityAt(i), 0.2] })),
    );
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the latest zone, the default class, the chart and the hours in each zone', async () => {
    await page.goto(`/device/detail/${built.devices[0].tangramId}/telemetry-status`);
    await page.getByTestId('tab-motor-health').click();
    await page.waitForURL(/\/motor-health$/);
    expect(await page.getByTestId('tab-motor-health').textContent()).toBe(devicesZh.devices.tab['motor-health']);

    // Ingest is asynchronous: wait for the last published point to be judged.
    await expect.poll(() => page.getByTestId('motor-health-zone').textContent(), { timeout: 15_000 }).toBe('C');
    expect(await page.getByTestId('motor-health-zone-meaning').textContent()).toBe(zh.zoneMeaning.C);
    expect(await page.getByTestId('motor-health-class').textContent()).toBe(zh.classDefault.replace('{{cls}}', zh.class.group2_rigid));
    expect(await page.getByTestId('motor-health-boundaries').textContent()).toContain('A/B 1.4、B/C 2.8、C/D 4.5 mm/s');
    await expect.poll(async () => Number(await page.getByTestId('motor-health-chart').getAttribute('data-points'))).toBeGreaterThan(0);

    await expect.poll(() => hoursOf('C')).toBe('0.5');
    expect([await hoursOf('A'), await hoursOf('B'), await hoursOf('D')]).toEqual(['1.0', '0.5', '0.0']);
    expect(await page.getByTestId('motor-health-hours-C').textContent()).toContain(zh.zoneMeaning.C);
    expect(await page.getByTestId('motor-health-hours-total').textContent()).toBe(zh.hoursTotal.replace('{{hours}}', '2.0'));
    await snap(page, 'motor-health');
  });

  it('judges a device bound to a group-1 rigid machine by that class, naming the machine', async () => {
    const db = server.ctx.db;
    const [configure] = await db.insert(machineConfigures).values({ tenantId: vendor.tenantId, name: 'Compressor set' }).returning();
    const [component] = await db
      .insert(machineComponents)
      .values({ configureId: configure.id, name: 'Motor', productId: built.productId, keys: ['vibration'], position: 0 })
      .returning();
    const [machine] = await db
      .insert(machines)
      .values({ tenantId: vendor.tenantId, configureId: configure.id, name: 'Compressor 7', machineClass: 'group1_rigid' })
      .returning();
    await db.insert(machineBindings).values({ machineId: machine.id, componentId: component.id, deviceId: built.devices[0].id });

    await page.reload();
    // Group 1 rigid: A below 2.3, B below 4.5 — 1.0 and 2.0 are A, 3.0 is B.
    await expect.poll(() => page.getByTestId('motor-health-zone').textContent()).toBe('B');
    expect(await page.getByTestId('motor-health-class').textContent()).toBe(
      zh.classFromMachine.replace('{{cls}}', zh.class.group1_rigid).replace('{{machine}}', 'Compressor 7'),
    );
    await expect.poll(() => hoursOf('A')).toBe('1.5');
    expect([await hoursOf('B'), await hoursOf('C'), await hoursOf('D')]).toEqual(['0.5', '0.0', '0.0']);
  });

  it('offers no motor-health tab for a device without a vibration key, and sends a link to it to the first tab', async () => {
    const plain = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, sensors: [{ key: 'temperature', unit: '°C' }] });
    const tangramId = plain.devices[0].tangramId;
    await page.goto(`/device/detail/${tangramId}/motor-health`);
    await page.waitForURL(new RegExp(`/device/detail/${tangramId}/telemetry-status$`));
    await page.getByTestId('tab-history-chart').waitFor();
    expect(await page.getByTestId('tab-motor-health').count()).toBe(0);
  });
});
