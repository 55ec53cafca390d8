/**
 * End to end in Chromium against the real server: a vendor configures a simple rule on the rule
 * tab; a simulated device streams telemetry that meets it; the alert appears live on alerts/dashboard; a real SMTP
 * server (smtp-server) receives the mail for the project's notification list, each recipient in its own language, and
 * its link opens the alert history of the device;
 * the fake LINE API receives the push for the linked user, sent with the channel's access token; with the SMTP
 * server stopped the next alert's mail waits (the console shows it pending) and arrives once SMTP is back.
 */
import { linePaths, type TLineGroup } from '@tessera/contracts';
import { startSimulator, type TSimulator } from '@tessera/device-sim';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, alerts, outboxEmails, projectSimpleRules, putNotificationEmails } from '@tessera/server';
import {
  linkAccount,
  lineUserId,
  setupChannel,
  type TTestChannel,
  startSmtpSink,
  type TSmtpSink,
  authorise,
  buildDeviceProject,
  type TBuiltProject,
  buildUser,
  buildVendor,
  TEST_PASSWORD,
  uniqueEmail,
  type TBuiltAccount,
  startFakeLine,
  type TFakeLine,
} from '@tessera/server/testing';
import type { TTestServer } from '@tessera/server/testing';
import { launchBrowser, newPage, snap } from '../support/browser.js';
import { eventually, login, pickOption } from '../support/console.js';
import { startE2eServer } from '../support/server.js';

describe('a rule fires, the alert shows live and reaches people by email and LINE', () => {
  let server: TTestServer;
  let smtp: TSmtpSink;
  let fake: TFakeLine;
  let browser: Browser;
  let page: Page;
  let vendor: TBuiltAccount;
  let oncall: TBuiltAccount;
  let built: TBuiltProject;
  let channel: TTestChannel;
  let sim: TSimulator | undefined;
  const outsider = uniqueEmail('ops-desk');
  const lineUser = lineUserId();

  const activeAlertOf = async (deviceId: number) =>
    (
      await server.ctx.db
        .select()
        .from(alerts)
        .where(and(eq(alerts.deviceId, deviceId), eq(alerts.state, 'open')))
    )[0];
  const streamFrom = (index: number) =>
    startSimulator({
      url: server.mqttUrl,
      devices: [{ ...built.devices[index], keys: ['temperature'] }],
      rateHz: 2,
      statusPeriodMs: 60_000,
    });

  beforeAll(async () => {
    smtp = await startSmtpSink();
    fake = await startFakeLine();
    server = await startE2eServer({ smtpUrl: smtp.url, lineApiBase: fake.url });
    vendor = await buildVendor(server);
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    // The on-call engineer reads English; the shared desk address has no account, so it gets the zh-TW default.
    oncall = await buildUser(server, vendor.tenantId);
    await server.ctx.db.update(accounts).set({ language: 'en' }).where(eq(accounts.id, oncall.accountId));
    for (const d of built.devices) await authorise(server.ctx.db, d.id, oncall.accountId);
    await putNotificationEmails(server.ctx.db, vendor.tenantId, built.projectId, { emails: [oncall.email, outsider] });
    // LINE: the vendor's channel, the on-call engineer linked through the bot, and a group for the project's alerts.
    channel = await setupChannel(server, vendor);
    await linkAccount(server, fake, channel, oncall, lineUser);
    const group = await server.api<TLineGroup>('POST', linePaths.groups, {
      token: vendor.token,
      body: { name: 'On call', project_ids: [built.projectId], levels: ['alert'], account_ids: [oncall.accountId], chat_ids: [] },
    });
    expect(group.status).toBe(201);

    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.httpUrl, 'zh-TW'));
    await login(page, vendor.email, TEST_PASSWORD, 'vendor');
  });
  afterAll(async () => {
    await sim?.stop();
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
    await fake?.stop();
  });

  it('configures a simple rule on the rule tab', async () => {
    await page.goto(`/project/detail/${built.projectId}/rule`);
    await page.getByTestId('simple-rule-add').click();
    await page.getByTestId('simple-rule-name').fill('過熱');
    await page.getByTestId('simple-rule-threshold').fill('10');
    await pickOption(page, 'simple-rule-level', '警報');
    await page.getByTestId('simple-rule-message').fill('溫度過高，請檢查冷卻');
    await page.getByTestId('simple-rule-notify-email').check();
    await page.getByTestId('simple-rule-notify-line').check();
    await page.getByTestId('simple-rule-submit').click();
    await page.getByTestId('simple-rule-row-過熱').waitFor();
    const [rule] = await server.ctx.db.select().from(projectSimpleRules).where(eq(projectSimpleRules.projectId, built.projectId));
    expect(rule).toMatchObject({ key: 'temperature', op: 'gt', threshold: 10, level: 'alert', notifyEmail: true, notifyLine: true });
  });

  it('the alert of simulated telemetry appears live on the dashboard', async () => {
    await page.goto('/alerts/dashboard');
    await page.locator('[data-testid="live-state"][data-state="connected"]').waitFor();
    await page.getByTestId('alert-empty').waitFor();
    sim = await streamFrom(0);
    const alert = await eventually(() => activeAlertOf(built.devices[0].id), 15_000);
    expect(alert).toMatchObject({ ruleKind: 'simple', level: 'alert', message: '溫度過高，請檢查冷卻', triggerKey: 'temperature' });
    const row = page.getByTestId(`alert-row-${alert.id}`);
    await row.waitFor({ timeout: 15_000 }); // no reload: it came over the live channel
    expect(await row.textContent()).toContain('溫度過高，請檢查冷卻');
    await snap(page, 'alerts-journey-dashboard');
    await sim.stop();
    sim = undefined;
  });

  it('mails the notification list, each recipient in its own language', async () => {
    const english = await smtp.waitFor((m) => m.to.includes(oncall.email), 15_000);
    expect(english.subject).toContain('[Tessera][Alert] 過熱');
    expect(english.text).toContain('New alert');
    expect(english.text).toContain(built.devices[0].tangramId);
    const chinese = await smtp.waitFor((m) => m.to.includes(outsider), 15_000);
    expect(chinese.subject).toContain('[Tessera][警報] 過熱');
    expect(chinese.text).toContain('新告警');
    expect(chinese.text).toContain('溫度過高，請檢查冷卻');
    // One mail per recipient for one alert, however long the device kept reporting.
    expect(smtp.mails.filter((m) => m.to.includes(oncall.email))).toHaveLength(1);
    // The mail's link opens the alert history narrowed to the device.
    const link = new URL(/https?:\/\/\S+\/alerts\/history\?\S+/.exec(english.text)?.[0] ?? '');
    await page.goto(`${link.pathname}${link.search}`);
    expect(await page.getByTestId('alert-filter-device').locator('input').inputValue()).toBe(built.devices[0].tangramId);
    const alert = await activeAlertOf(built.devices[0].id);
    await page.getByTestId('alert-history-table').getByTestId(`alert-row-${alert.id}`).waitFor();
  });

  it('pushes to the linked LINE user with the channel access token', async () => {
    const push = await eventually(async () => fake.calls('/v2/bot/message/push').find((c) => (c.body as { to: string }).to === lineUser));
    expect(push?.headers.authorization).toBe(`Bearer ${channel.accessToken}`);
    expect(push?.headers['x-line-retry-key']).toMatch(/^[0-9a-f-]{36}$/);
    const body = push?.body as { messages: { type: string; text: string }[] };
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0].type).toBe('text');
    expect(body.messages[0].text).toContain('溫度過高，請檢查冷卻');
  });

  it('loses no mail while SMTP is down: the console shows it pending, and it arrives once SMTP is back', async () => {
    const port = smtp.port;
    await smtp.stop();
    await page.goto('/alerts/dashboard');
    await page.locator('[data-testid="live-state"][data-state="connected"]').waitFor();
    sim = await streamFrom(1);
    const alert = await eventually(() => activeAlertOf(built.devices[1].id), 15_000);
    await sim.stop();
    sim = undefined;
    const pending = await eventually(async () => {
      const rows = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.alertId, alert.id));
      return rows.length === 2 && rows.every((r) => r.status === 'pending' && r.attempts >= 1) ? rows : undefined;
    }, 15_000);
    expect(pending?.every((r) => r.lastError && r.sentAt === null)).toBe(true);

    await page.getByTestId(`alert-row-${alert.id}`).click();
    const delivery = page.getByTestId('alert-drawer').getByTestId(`delivery-row-email-${outsider}`);
    await delivery.waitFor();
    expect(await delivery.getByTestId('delivery-status').textContent()).toBe('重試中／排隊中');

    smtp = await startSmtpSink(port);
    const late = await smtp.waitFor((m) => m.to.includes(outsider), 30_000);
    expect(late.text).toContain(built.devices[1].tangramId);
    await expect.poll(() => delivery.getByTestId('delivery-status').textContent(), { timeout: 15_000 }).toBe('已送出');
  });
});
