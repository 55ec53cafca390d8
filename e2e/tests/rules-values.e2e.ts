/**
 * Rules and history of keys whose values are not numbers (docs/decisions/rules.md "Keys that are not numbers"): the
 * simple-rule form offers only the operators of the chosen key's type (equals / contains / changed for a string key,
 * the comparisons for a number key), a rule made there on a string key opens an alert when a real MQTT device sends a
 * matching value, and the history tab offers no aggregation for a string key.
 */
import { RULE_BLOCK, topics } from '@tessera/contracts';
import { and, eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, projectSimpleRules } from '@tessera/server';
import {
  buildDeviceProject,
  buildVendor,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltDevice,
  type TTestServer,
} from '@tessera/server/testing';
import { launchBrowser, newConsolePage, snap } from '../support/browser.js';
import { login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';
// window.tesseraRuleEditor's type.
import type {} from '../../apps/web/src/features/project-rules/blockly/workspace.js';

describe('rules and history of a string key (Chromium)', () => {
  let server: TTestServer;
  let browser: Browser;
  let vendor: TBuiltAccount;
  let projectId: number;
  let dev: TBuiltDevice;
  let device: MqttClient;
  let page: Page;

  beforeAll(async () => {
    server = await startE2eServer();
    browser = await launchBrowser();
    vendor = await buildVendor(server);
    const built = await buildDeviceProject(server.ctx.db, {
      tenantId: vendor.tenantId,
      count: 1,
      sensors: [
        { key: 'temperature', unit: '°C' },
        { key: 'state', valueType: 'string' },
      ],
    });
    projectId = built.projectId;
    [dev] = built.devices;
    device = await mqtt.connectAsync(server.mqttUrl, {
      username: dev.tangramId,
      password: dev.secret,
      clientId: `${dev.tangramId}-e2e`,
      reconnectPeriod: 0,
    });
    ({ page } = await newConsolePage(browser, server.httpUrl, 'en'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await device?.endAsync(true);
    await browser?.close();
    await server?.stop();
  });

  /** The texts of the open select's options. */
  const openOptions = async (testId: string) => {
    await page.getByTestId(testId).click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await options.first().waitFor();
    const texts = await options.allTextContents();
    await page.keyboard.press('Escape');
    return texts;
  };

  it('offers only the string operators for a string key, and the rule made there fires on the device’s value', async () => {
    await page.goto(`/project/detail/${projectId}/rule`);
    await page.getByTestId('simple-rule-add').click();
    await pickOption(page, 'simple-rule-key', /^temperature/);
    expect(await openOptions('simple-rule-op')).toEqual(['>', '≥', '<', '≤', '=', '≠']);
    await pickOption(page, 'simple-rule-key', /^state/);
    expect(await openOptions('simple-rule-op')).toEqual(['equals', 'contains', 'changed']);
    expect(await page.getByTestId('simple-rule-threshold').count()).toBe(0);
    await pickOption(page, 'simple-rule-op', 'contains');
    await page.getByTestId('simple-rule-name').fill('Jammed');
    await page.getByTestId('simple-rule-value').fill('jam');
    await page.getByTestId('simple-rule-message').fill('The line is jammed');
    await snap(page, 'rules-values-form');
    await page.getByTestId('simple-rule-submit').click();
    await page.getByTestId('simple-rule-row-Jammed').waitFor();
    expect(await page.getByTestId('simple-rule-row-Jammed').textContent()).toContain('state contains "jam"');
    const [rule] = await server.ctx.db.select().from(projectSimpleRules).where(eq(projectSimpleRules.projectId, projectId));
    expect(rule).toMatchObject({ key: 'state', op: 'contains', value: 'jam', threshold: null });

    const ts = Date.now() - 5_000;
    await device.publishAsync(
      topics.telemetry(dev.tangramId),
      JSON.stringify([
        { key: 'state', ts, vs: ['running'] },
        { key: 'state', ts: ts + 1_000, vs: ['stopped: jam at feeder'] },
        { key: 'temperature', ts, vs: [21] },
      ]),
      { qos: 1 },
    );
    const opened = () =>
      server.ctx.db
        .select({ message: alerts.message, state: alerts.state })
        .from(alerts)
        .where(and(eq(alerts.deviceId, dev.id), eq(alerts.ruleId, rule?.id ?? 0)));
    await expect.poll(opened, { timeout: 15_000 }).toEqual([{ message: 'The line is jammed', state: 'open' }]);
  });

  it('in the Blockly editor the value-test block offers the string key and the telemetry block the number key', async () => {
    await page.goto(`/project/detail/${projectId}/rule`);
    await page.getByTestId('program-add').click();
    await page.locator('.blocklyToolbox').waitFor();
    await expect.poll(() => page.evaluate(() => Boolean(window.tesseraRuleEditor))).toBe(true);
    const keysOf = (type: string) =>
      page.evaluate((t) => {
        const block = window.tesseraRuleEditor!.workspace.newBlock(t);
        const options = (block.getField('KEY') as unknown as { getOptions(cache: boolean): [string, string][] }).getOptions(false);
        block.dispose();
        return options.map(([, value]) => value);
      }, type);
    expect(await keysOf(RULE_BLOCK.valueTest)).toEqual(['state']);
    expect(await keysOf(RULE_BLOCK.telemetry)).toEqual(['temperature']);
  });

  it('the history tab has an aggregation select for a number key and none for a string key', async () => {
    await page.goto(`/device/detail/${dev.tangramId}/history-chart`);
    await pickOption(page, 'history-key', 'temperature');
    await page.getByTestId('history-fn').waitFor();
    await pickOption(page, 'history-key', 'state');
    await page.getByTestId('value-history-table').waitFor();
    await expect.poll(() => page.getByTestId('history-fn').count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('value-history-table').locator('tbody tr').allTextContents(), { timeout: 15_000 })
      .toEqual([expect.stringContaining('stopped: jam at feeder'), expect.stringContaining('running')]);
    await snap(page, 'rules-values-history');
  });
});
