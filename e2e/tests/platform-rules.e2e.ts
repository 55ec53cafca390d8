/**
 * End to end in Chromium against the real server: a vendor builds a platform rule by drag and drop (start on
 * telemetry → condition → true → alert → notification), connects the nodes on the React Flow canvas, gets a broken
 * expression refused at apply with the problem on its node, fixes it, applies and starts; a real MQTT device
 * publishes; the mail reaches the test SMTP server, the alert is stored as a platform-rule alert and appears live on
 * the alerts dashboard of a second tab, and the run's trace highlights the path taken with each node's output on
 * click; the rule list shows the platform-rule alert. Then stop
 * (with a confirmation), copy and delete. Beside it a schedule rule (every minute) commands 3 simulated devices at
 * the scheduled minute: the fire, the run and the devices' command log show it.
 */
import { startSimulator, type TSimulator } from '@tessera/device-sim';
import { DEFAULT_FEATURES, paths, platformRulePaths, type TFlowGraphInput, type TPlatformRule, type TProject } from '@tessera/contracts';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, deviceCommands, putNotificationEmails } from '@tessera/server';
import {
  buildAccount,
  buildDeviceProject,
  buildVendor,
  startSmtpSink,
  TEST_PASSWORD,
  type TBuiltAccount,
  type TBuiltProject,
  type TSmtpSink,
} from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { eventually, login, pickOption, publishAsDevice } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('platform rules: build a flow, apply, run on real telemetry, read its trace (Chromium)', () => {
  let server: TTestServer;
  let smtp: TSmtpSink;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let built: TBuiltProject;
  let ruleId = 0;
  let sim: TSimulator;
  let fleet: TBuiltProject;
  let scheduledRuleId = 0;
  let projectName = '';
  const SCHEDULED = 'Every minute device check';

  /** A schedule rule (every minute, UTC) sending getDeviceInfo to every device of `projectId`, applied and started. */
  async function startScheduleRule(projectId: number): Promise<number> {
    const at = { x: 0, y: 0 };
    const draft: TFlowGraphInput = {
      nodes: [
        { id: 'n1', type: 'start', position: at, data: { trigger: { kind: 'schedule', cron: '* * * * *', time_zone: 'UTC' } } },
        {
          id: 'n2',
          type: 'deviceParallelControl',
          position: { x: 0, y: 160 },
          data: { scope: { kind: 'projects', ids: [projectId] }, command: { name: 'getDeviceInfo' }, concurrency: 3 },
        },
      ],
      edges: [{ id: 'e1', source: 'n1', target: 'n2' }],
    };
    const token = vendor.token;
    const created = await server.api<TPlatformRule>('POST', platformRulePaths.rules, { token, body: { name: SCHEDULED, draft } });
    expect((await server.api('POST', platformRulePaths.action(created.body.id, 'apply'), { token })).status).toBe(200);
    expect((await server.api('POST', platformRulePaths.action(created.body.id, 'start'), { token })).status).toBe(200);
    return created.body.id;
  }

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startE2eServer({ smtpUrl: smtp.url });
    vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    projectName = (await server.api<TProject>('GET', paths.project(built.projectId), { token: vendor.token })).body.name;
    await putNotificationEmails(server.ctx.db, vendor.tenantId, built.projectId, { emails: ['line-ops@example.com'] });
    fleet = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    sim = await startSimulator({
      url: server.mqttUrl,
      devices: fleet.devices.map((d) => ({ ...d, keys: ['humidity'] })),
      rateHz: 0.2,
      statusPeriodMs: 60_000,
    });
    scheduledRuleId = await startScheduleRule(fleet.projectId);
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await sim?.stop();
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
  });

  /** Drops node `kind` from the palette onto the canvas at (x, y) of the canvas box; answers its id. */
  async function drop(kind: string, x: number, y: number, id: string): Promise<void> {
    await page.getByTestId(`palette-${kind}`).dragTo(page.getByTestId('flow-canvas'), { targetPosition: { x, y } });
    await page.getByTestId(`flow-node-${id}`).waitFor();
  }
  async function connect(from: string, to: string): Promise<void> {
    await page
      .locator(`[data-testid="flow-node-${from}"] .react-flow__handle.source`)
      .dragTo(page.locator(`[data-testid="flow-node-${to}"] .react-flow__handle.target`));
  }
  async function select(id: string): Promise<void> {
    await page.getByTestId(`flow-node-${id}`).click();
    await expect.poll(() => page.getByTestId('node-panel').textContent()).toContain(id);
  }
  async function addTag(testId: string, value: string): Promise<void> {
    await page.locator(`[data-testid="${testId}"] input`).fill(value);
    await page.keyboard.press('Enter');
  }

  it('creates a rule from the list and opens the editor', async () => {
    await page.getByTestId('menu-platformRule').click();
    await page.waitForURL(/\/platform_rule\/list$/);
    await page.getByRole('link', { name: SCHEDULED }).waitFor();
    await page.getByTestId('rule-create').first().click();
    await page.getByTestId('rule-name').fill('Line overheating');
    await page.getByTestId('rule-create-submit').click();
    await page.waitForURL(/\/platform_rule\/detail\/\d+$/);
    ruleId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByTestId('rule-detail-status').waitFor();
    expect(await page.getByTestId('rule-detail-status').getAttribute('data-status')).toBe('pending');
  });

  it('builds the flow by drag and drop; a broken expression is refused at apply, on its node', async () => {
    await drop('start', 200, 30, 'n1');
    await select('n1');
    // The scope is picked by the project's name (search, then choose).
    await page.locator('[data-testid="node-field-trigger-scope-ids"] input').fill(projectName);
    await pickOption(page, 'node-field-trigger-scope-ids', projectName);
    await addTag('node-field-trigger-keys', 'temperature');
    await drop('condition', 200, 130, 'n2');
    await select('n2');
    await page.getByTestId('node-field-expression').fill('value >');
    await drop('conditionResult', 200, 230, 'n3');
    await drop('alert', 40, 360, 'n4');
    await select('n4');
    await page.getByTestId('node-field-message').fill('{{tangramId}} overheating at {{value}}');
    await drop('notification', 300, 360, 'n5');
    await select('n5');
    await page.getByTestId('node-field-message').fill('Line overheating: {{value}} °C');
    await connect('n1', 'n2');
    await connect('n2', 'n3');
    await connect('n3', 'n4');
    await connect('n3', 'n5');
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(4);
    await snap(page, 'platform-rule-editor');

    await page.getByTestId('rule-apply').click();
    await page.getByTestId('flow-node-problem-n2').waitFor();
    expect(await page.getByTestId('flow-node-n2').getAttribute('data-problem')).toBe('true');
    // Said in the console's language (the stored problem's code), not the server's English.
    await expect.poll(() => page.getByTestId('flow-node-problem-n2').textContent()).toMatch(/^語法錯誤：/);
    expect(await page.getByTestId('rule-detail-status').getAttribute('data-status')).toBe('error');

    await select('n2');
    await page.getByTestId('node-field-expression').fill('value > 30');
    await page.getByTestId('rule-apply').click();
    await expect.poll(() => page.getByTestId('rule-detail-status').getAttribute('data-status')).toBe('good');
    expect(await page.getByTestId('flow-node-problem-n2').count()).toBe(0);
    await page.getByTestId('rule-detail-start').click();
    await expect.poll(() => page.getByTestId('rule-detail-status').getAttribute('data-status')).toBe('running');
  });

  it('runs on a real MQTT point: the mail arrives, the alert is stored, and the trace shows the path', async () => {
    const [device] = built.devices;
    if (!device) throw new Error('no device');
    // A second tab of the same session watches the alerts dashboard: the platform alert must arrive live.
    const dashboard = await page.context().newPage();
    await dashboard.goto('/alerts/dashboard');
    await dashboard.locator('[data-testid="live-state"][data-state="connected"]').waitFor();
    await publishAsDevice(server.mqttUrl, device.tangramId, device.secret, [{ key: 'temperature', ts: Date.now(), vs: [36.5] }]);
    const mail = await smtp.waitFor((m) => m.to.includes('line-ops@example.com'), 20_000);
    expect(mail.text).toContain('Line overheating: 36.5 °C');
    const stored = await eventually(async () => {
      const rows = await server.ctx.db
        .select()
        .from(alerts)
        .where(and(eq(alerts.deviceId, device.id), eq(alerts.ruleKind, 'platform')));
      return rows.length > 0 ? rows : undefined;
    });
    expect(stored?.[0]?.message).toBe(`${device.tangramId} overheating at 36.5`);
    const live = dashboard.getByTestId(`alert-row-${stored?.[0]?.id}`);
    await live.waitFor({ timeout: 15_000 }); // no reload: it came over the live channel
    expect(await live.textContent()).toContain(`${device.tangramId} overheating at 36.5`);
    await dashboard.close();

    const row = page.locator('[data-testid^="run-row-"]').first();
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    for (const id of ['n1', 'n2', 'n3', 'n4', 'n5']) {
      await expect.poll(() => page.getByTestId(`flow-node-${id}`).getAttribute('data-trace')).toBe('visited');
    }
    await select('n2');
    expect(await page.getByTestId('node-step-output').textContent()).toBe('true');
    await snap(page, 'platform-rule-trace');
  });

  it('stops after a confirmation, copies, and deletes the stopped rule from the list', async () => {
    await page.getByTestId('rule-detail-stop').click();
    await page.getByTestId('rule-stop-confirm').click();
    // Stopping until no replica may still start a run (the rule cache), then stopped without a reload.
    await expect.poll(() => page.getByTestId('rule-detail-status').getAttribute('data-status')).toBe('stopping');
    await expect.poll(() => page.getByTestId('rule-detail-status').getAttribute('data-status'), { timeout: 20_000 }).toBe('stopped');
    await page.goto('/platform_rule/list');
    // The list's alert summary counts the rule's open alert.
    await page.getByTestId(`platform-alerts-rule-${ruleId}`).waitFor();
    expect(await page.getByTestId('platform-alerts-active').textContent()).toContain('1');
    expect(await page.getByTestId('platform-alerts-level-alert').textContent()).toContain('1');
    // Its link opens the alerts history filtered to platform rules, holding this alert.
    await page.getByTestId('platform-alerts-history').click();
    await page.waitForURL(/\/alerts\/history\?rule_kind=platform/);
    expect(await page.getByTestId('alert-filter-rule-kind').textContent()).toContain('平台規則');
    await expect.poll(() => page.locator('[data-testid^="alert-row-"]').count()).toBe(1);
    expect(await page.locator('[data-testid^="alert-row-"]').first().textContent()).toContain('overheating at 36.5');
    await page.goto('/platform_rule/list');
    await page.getByTestId(`rule-copy-${ruleId}`).click();
    await page.getByText('Line overheating (copy)').waitFor();
    await page.getByTestId(`rule-delete-${ruleId}`).click();
    await page.getByTestId('rule-delete-confirm').click();
    await expect.poll(() => page.getByTestId(`rule-status-${ruleId}`).count()).toBe(0);
    const left = await server.api<{ data: TPlatformRule[] }>('GET', platformRulePaths.rules, { token: vendor.token });
    expect(left.body.data.map((r) => r.name).sort()).toEqual([SCHEDULED, 'Line overheating (copy)']);
  });

  it('a schedule rule commands the 3 simulated devices at the scheduled minute: its fire, run and command log', async () => {
    await page.goto(`/platform_rule/detail/${scheduledRuleId}`);
    const fire = page.locator('[data-testid^="fire-row-"]').first();
    await fire.waitFor({ timeout: 75_000 });
    const fireAt = Number((await fire.getAttribute('data-testid'))?.replace('fire-row-', ''));
    expect(fireAt % 60_000).toBe(0);
    expect(await fire.locator('[data-state]').getAttribute('data-state')).toBe('fired');

    const logged = await eventually(async () => {
      const rows = await server.ctx.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.accountEmail, `rule: ${SCHEDULED}`));
      const ofFire = rows.filter((r) => r.createdAt >= fireAt && r.createdAt < fireAt + 30_000);
      return ofFire.length >= 3 ? ofFire : undefined;
    }, 20_000);
    expect(new Set(logged?.map((r) => r.deviceId))).toEqual(new Set(fleet.devices.map((d) => d.id)));
    expect(logged?.every((r) => r.outcome === 'ok')).toBe(true);
    expect(sim.stats().commandsAnswered).toBeGreaterThanOrEqual(3);

    const run = page.locator('[data-testid^="run-row-"]').last();
    await run.waitFor({ timeout: 20_000 });
    await run.click();
    await expect.poll(() => page.getByTestId('flow-node-n2').getAttribute('data-trace')).toBe('visited');
    await select('n2');
    expect(JSON.parse((await page.getByTestId('node-step-output').textContent()) ?? '{}')).toMatchObject({ ok: true, sent: 3, failed: 0 });
    await snap(page, 'platform-rule-schedule');
  });

  it('a user granted the section sees the rules read-only, and is sent back from the editor, which stays with vendors', async () => {
    const user = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId, fea: [...DEFAULT_FEATURES.user, '11'] });
    const { context, page: userPage } = await newPage(browser, server.httpUrl, 'zh-TW');
    try {
      await login(userPage, user.email, TEST_PASSWORD, 'user');
      await userPage.goto('/platform_rule/list');
      await userPage.getByTestId('rule-read-only').waitFor();
      await userPage.getByText(SCHEDULED).waitFor();
      expect(await userPage.getByTestId('rule-create').count()).toBe(0);
      expect(await userPage.getByTestId(`rule-stop-${scheduledRuleId}`).count()).toBe(0);
      await userPage.getByTestId('platform-alerts').waitFor();
      // The editor is the vendor's: the route guard sends a user back to the rule list before any call is made.
      await userPage.goto(`/platform_rule/detail/${scheduledRuleId}`);
      await userPage.waitForURL((url) => !url.pathname.includes('/detail/'));
      await userPage.getByTestId('rule-read-only').waitFor();
      await snap(userPage, 'platform-rule-user-list');
    } finally {
      await context.close();
    }
  });
});
