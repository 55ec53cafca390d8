/**
 * The configure tab in Chromium: a vendor edits a sensor's upload period on the configure tab, saves, syncs, and
 * the simulated device's publish rate of that key drops (counted in the database); the status preview decodes a
 * typed 40-bit word by status lines brought in with the easy import.
 */
import { startSimulator, type TSimulator } from '@tessera/device-sim';
import { and, count, eq, gte, lt } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telemetry, telemetryKeys } from '@tessera/server';
import { buildDeviceProject, type TBuiltProject, buildVendor, TEST_PASSWORD } from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { eventually, login } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('configure tab in Chromium', () => {
  let server: TTestServer;
  let browser: Browser;
  let page: Page;
  let built: TBuiltProject;
  let sim: TSimulator;

  /** Temperature points the device stamped in a `windowMs` window starting now (read after ingest flushed). */
  const temperatureRate = async (windowMs: number) => {
    const from = Date.now();
    await sleep(windowMs + 800);
    const [{ n }] = await server.ctx.db
      .select({ n: count() })
      .from(telemetry)
      .innerJoin(telemetryKeys, eq(telemetryKeys.id, telemetry.keyId))
      .where(
        and(
          eq(telemetry.deviceId, built.devices[0].id),
          eq(telemetryKeys.key, 'temperature'),
          gte(telemetry.ts, from),
          lt(telemetry.ts, from + windowMs),
        ),
      );
    return n;
  };

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    const vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 });
    sim = await startSimulator({
      url: server.mqttUrl,
      devices: [{ ...built.devices[0], keys: ['temperature', 'humidity'] }],
      rateHz: 4,
      statusPeriodMs: 60_000,
    });
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await sim?.stop();
    await browser?.close();
    await server?.stop();
  });

  it('an upload period saved and synced on the tab slows the device', async () => {
    expect(await temperatureRate(2000)).toBeGreaterThanOrEqual(5); // ~8 at 4 Hz
    await page.goto(`/project/detail/${built.projectId}/configure`);
    const period = page.getByTestId('sensor-temperature-upload_period');
    await period.waitFor();
    expect(await period.inputValue()).toBe('1'); // 1000 ms shown in seconds
    await period.fill('3');
    await page.getByTestId('sensors-save').click();
    // Saved: the edit is no longer pending, so sync (disabled while edits are unsaved) becomes clickable.
    await expect.poll(() => page.getByTestId('sensors-sync').isEnabled()).toBe(true);
    await page.getByTestId('sensors-sync').click();
    await page.getByTestId('sync-confirm').click();
    await page.getByText('設定已傳送至 1 台裝置').waitFor();
    expect(await eventually(async () => sim.stats().configsApplied >= 1, 5000)).toBe(true);
    expect(await temperatureRate(3000)).toBeLessThanOrEqual(2); // one every 3 s
    await snap(page, 'configure-sensors');
  });

  it('easy import, save and a live preview of a typed status word', async () => {
    await page.getByTestId('status-import-text').fill('Mode;0;2;0=Idle,1=Run,2=Fault\nDoor;8;1;0=Closed,1=Open');
    await page.getByTestId('status-import').click();
    await page.getByTestId('status-save').click();
    await expect.poll(() => page.getByTestId('status-save').isEnabled()).toBe(false);
    await page.getByTestId('status-sample').fill('0x0102');
    await expect.poll(() => page.getByTestId('status-preview-Mode').textContent()).toContain('Fault');
    expect(await page.getByTestId('status-preview-Door').textContent()).toContain('Open');
    expect(await page.getByTestId('status-sample-binary').textContent()).toBe(`${'0'.repeat(31)}100000010`);
    await page.getByTestId('status-sample').fill('0x0103');
    await expect.poll(() => page.getByTestId('status-preview-Mode').textContent()).toContain('（未定義的值）');
    await page.reload();
    await page.getByTestId('status-sample').fill('1');
    await expect.poll(() => page.getByTestId('status-preview-Mode').textContent()).toContain('Run');
  });
});
