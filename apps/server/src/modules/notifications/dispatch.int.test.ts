import { notificationPaths, settingsPaths, type TSubscriptionSettings } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount, buildVendor, uniqueEmail, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { accounts, deviceAuthz, outboxEmails } from '../../db/schema.js';
import { startSmtpSink, type TSmtpSink } from '../mail/smtp-sink.fixture.js';
import { createRuleNotifier } from './dispatch.js';
import { notificationOf } from './notify.fixtures.js';
import { insertAlert } from '../alerts/alerts.fixtures.js';

describe(`notification dispatch through SMTP (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let smtp: TSmtpSink;
  let vendor: TBuiltAccount;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ smtpUrl: smtp.url, publicUrl: 'https://console.example.com' });
    vendor = await buildVendor(server);
  });
  afterAll(async () => {
    await server.stop();
    await smtp.stop();
  });

  const notifier = () => createRuleNotifier(server.ctx);
  const newProject = (count = 1) => buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count });
  const setList = async (p: TBuiltProject, emails: string[]) =>
    expect((await server.api('PUT', settingsPaths.notificationEmails(p.projectId), { token: vendor.token, body: { emails } })).status).toBe(
      200,
    );
  const subscribe = async (who: TBuiltAccount, url: string, body: TSubscriptionSettings) => {
    const res = await server.api('PUT', url, { token: who.token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const userOf = async (language: 'zh-TW' | 'en', level: 'user' | 'vendor' = 'user') => {
    const a = await buildAccount(server, { level, tenantId: vendor.tenantId, email: uniqueEmail(language === 'en' ? 'en' : 'zh') });
    await server.ctx.db.update(accounts).set({ language }).where(eq(accounts.id, a.accountId));
    return a;
  };
  const rowsOf = (alertId: number) => server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.alertId, alertId));
  it('sends the project list its mail, each address in its account language (zh-TW when it has no account)', async () => {
    const p = await newProject();
    const zh = await userOf('zh-TW');
    const en = await userOf('en');
    const stranger = uniqueEmail('outsider');
    await setList(p, [zh.email, en.email, stranger]);
    const alertId = await insertAlert(server.ctx.db, p.devices[0].id, { level: 'alert' });
    await notifier().notify(notificationOf(p, p.devices[0].id, alertId, 'alert'));

    const enMail = await smtp.waitFor((m) => m.to.includes(en.email));
    expect(enMail.subject).toMatch(/^\[Tessera\]\[Alert\] Too hot — dev /);
    expect(enMail.text).toContain('Message: temperature above 30');
    expect(enMail.text).toContain(`(${p.devices[0].tangramId})`);
    expect(enMail.text).toContain('Trigger: temperature = 31.5');
    expect(enMail.text).toContain('15 Jan 2026, 04:05:06 UTC');
    expect(enMail.text).toContain(`https://console.example.com/alerts/history?device=${p.devices[0].tangramId}`);
    const zhMail = await smtp.waitFor((m) => m.to.includes(zh.email));
    expect(zhMail.subject).toMatch(/^\[Tessera\]\[警報\] Too hot — dev /);
    expect(zhMail.text).toContain('訊息: temperature above 30');
    expect(zhMail.text).toContain('2026/01/15 12:05:06');
    const strangerMail = await smtp.waitFor((m) => m.to.includes(stranger));
    expect(strangerMail.subject).toContain('[警報]');

    const rows = await rowsOf(alertId);
    expect(rows.map((r) => r.to).sort()).toEqual([zh.email, en.email, stranger].sort());
  });

  it('sends one mail per address when the list and a subscription both reach it', async () => {
    const p = await newProject();
    const en = await userOf('en');
    await authorise(server.ctx.db, p.devices[0].id, en.accountId);
    await setList(p, [en.email.toUpperCase()]);
    await subscribe(en, notificationPaths.device(p.devices[0].tangramId), { levels: ['alert'], channels: ['email'] });
    await subscribe(en, notificationPaths.project(p.projectId), { levels: ['alert'], channels: ['email', 'line'] });
    const alertId = await insertAlert(server.ctx.db, p.devices[0].id, { level: 'alert' });
    await notifier().notify(notificationOf(p, p.devices[0].id, alertId, 'alert'));
    await smtp.waitFor((m) => m.to.includes(en.email));
    const rows = await rowsOf(alertId);
    expect(rows).toHaveLength(1);
    expect(rows[0].to).toBe(en.email);
  });

  it('matches subscriptions by level, channel and scope; a device subscription overrides the project one', async () => {
    const p = await newProject(2);
    const [d1, d2] = p.devices;
    const byProject = await userOf('en');
    const muted = await userOf('en');
    const lineOnly = await userOf('en');
    const remindOnDevice = await userOf('zh-TW');
    for (const u of [byProject, muted, lineOnly, remindOnDevice]) {
      await authorise(server.ctx.db, d1.id, u.accountId);
      await authorise(server.ctx.db, d2.id, u.accountId);
    }
    await subscribe(byProject, notificationPaths.project(p.projectId), { levels: ['alert', 'early_warning'], channels: ['email'] });
    // Project says yes, but this device is muted (empty levels) for `muted`.
    await subscribe(muted, notificationPaths.project(p.projectId), { levels: ['alert'], channels: ['email'] });
    await subscribe(muted, notificationPaths.device(d1.tangramId), { levels: [], channels: ['email'] });
    await subscribe(lineOnly, notificationPaths.project(p.projectId), { levels: ['alert'], channels: ['line'] });
    // Project says "alert" only; on d1 this user wants "remind" too, and the device row wins for d1.
    await subscribe(remindOnDevice, notificationPaths.project(p.projectId), { levels: ['alert'], channels: ['email'] });
    await subscribe(remindOnDevice, notificationPaths.device(d1.tangramId), { levels: ['remind'], channels: ['email'] });

    const recipients = async (deviceId: number, level: 'alert' | 'remind') => {
      const alertId = await insertAlert(server.ctx.db, deviceId, { level: level });
      await notifier().notify(notificationOf(p, deviceId, alertId, level, { projectEmail: false }));
      return (await rowsOf(alertId)).map((r) => r.to).sort();
    };
    expect(await recipients(d1.id, 'alert')).toEqual([byProject.email]);
    expect(await recipients(d2.id, 'alert')).toEqual([byProject.email, muted.email, remindOnDevice.email].sort());
    expect(await recipients(d1.id, 'remind')).toEqual([remindOnDevice.email]);
    expect(await recipients(d2.id, 'remind')).toEqual([]);
    const mail = await smtp.waitFor((m) => m.to.includes(remindOnDevice.email) && m.subject.includes('[提醒]'));
    expect(mail.text).toContain('新告警');
  });

  it('sends nothing to a subscriber who lost access to the device, nor for a notice without a level', async () => {
    const p = await newProject();
    const d = p.devices[0];
    const leaver = await userOf('en');
    await authorise(server.ctx.db, d.id, leaver.accountId);
    await subscribe(leaver, notificationPaths.device(d.tangramId), { levels: ['alert'], channels: ['email'] });
    await server.ctx.db.delete(deviceAuthz).where(eq(deviceAuthz.accountId, leaver.accountId));
    const alertId = await insertAlert(server.ctx.db, d.id, { level: 'alert' });
    await notifier().notify(notificationOf(p, d.id, alertId, 'alert', { projectEmail: false }));
    expect(await rowsOf(alertId)).toEqual([]);

    const staying = await userOf('en');
    await authorise(server.ctx.db, d.id, staying.accountId);
    await subscribe(staying, notificationPaths.device(d.tangramId), { levels: ['alert', 'remind', 'early_warning'], channels: ['email'] });
    const noticeAlert = await insertAlert(server.ctx.db, d.id, { level: 'remind' });
    await notifier().notify(notificationOf(p, d.id, noticeAlert, null, { reason: 'notify', projectEmail: false }));
    expect(await rowsOf(noticeAlert)).toEqual([]);
  });

  it("sends an app rule's notification to its owner only, by the owner's channels", async () => {
    const p = await newProject();
    const d = p.devices[0];
    const owner = await userOf('en');
    const bystander = await userOf('en');
    for (const u of [owner, bystander]) await authorise(server.ctx.db, d.id, u.accountId);
    await subscribe(bystander, notificationPaths.device(d.tangramId), { levels: ['remind'], channels: ['email'] });
    await setList(p, [uniqueEmail('listed')]);
    const first = await insertAlert(server.ctx.db, d.id, { level: 'remind' });
    await notifier().notify(notificationOf(p, d.id, first, 'remind', { ownerAccountId: owner.accountId }));
    expect((await rowsOf(first)).map((r) => r.to)).toEqual([owner.email]);

    // The owner chose LINE only for this device: no mail.
    await subscribe(owner, notificationPaths.device(d.tangramId), { levels: [], channels: ['line'] });
    const second = await insertAlert(server.ctx.db, d.id, { level: 'remind' });
    await notifier().notify(notificationOf(p, d.id, second, 'remind', { ownerAccountId: owner.accountId }));
    expect(await rowsOf(second)).toEqual([]);
  });

  it('queues every mail of one notification in one transaction: a failure queues none', async () => {
    const p = await newProject();
    await setList(p, [uniqueEmail('one'), uniqueEmail('two')]);
    const alertId = await insertAlert(server.ctx.db, p.devices[0].id, { level: 'alert' });
    const ctx = server.ctx;
    let calls = 0;
    const failing = createRuleNotifier({
      ...ctx,
      mailer: {
        async enqueue(mail, tx) {
          calls += 1;
          if (calls === 2) throw new Error('disk full');
          await ctx.mailer.enqueue(mail, tx);
        },
      },
    });
    await expect(failing.notify(notificationOf(p, p.devices[0].id, alertId, 'alert'))).rejects.toThrow('disk full');
    expect(await rowsOf(alertId)).toEqual([]);
  });
});
