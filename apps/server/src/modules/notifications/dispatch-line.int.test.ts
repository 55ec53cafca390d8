import { notificationPaths, type TSubscriptionSettings } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import {
  accounts,
  lineAccountLinks,
  lineContacts,
  lineGroupMembers,
  lineGroupProjects,
  lineGroups,
  lineOfficialAccounts,
  lineOutbox,
} from '../../db/schema.js';
import { freePort } from '../mail/smtp-sink.fixture.js';
import { createRuleNotifier } from './dispatch.js';
import { notificationOf } from './notify.fixtures.js';
import { insertAlert } from '../alerts/alerts.fixtures.js';

/**
 * The LINE side of the dispatcher, checked at the LINE outbox (what H3's push worker sends; its own tests check the
 * requests the LINE API receives). LINE_API_BASE points at a closed port so nothing leaves the machine.
 */
describe(`notification dispatch to LINE (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;
  let seq = 0;
  beforeAll(async () => {
    server = await startTestServer({ lineApiBase: `http://127.0.0.1:${await freePort()}` });
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    await server.ctx.db.insert(lineOfficialAccounts).values({
      tenantId: vendor.tenantId,
      channelId: '1234567890',
      botBasicId: '@tessera',
      channelSecretEnc: 'not-a-real-secret',
      accessTokenEnc: 'not-a-real-token',
      webhookId: `wh${Date.now()}`,
      consoleOrigin: 'http://localhost',
      updatedAt: Date.now(),
    });
  });
  afterAll(() => server.stop());

  const device = () => project.devices[0];
  const person = async (language: 'zh-TW' | 'en', linked: boolean) => {
    const a = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId });
    await server.ctx.db.update(accounts).set({ language }).where(eq(accounts.id, a.accountId));
    await authorise(server.ctx.db, device().id, a.accountId);
    const lineUserId = `U${(++seq).toString().padStart(32, '0')}`;
    if (linked) {
      await server.ctx.db
        .insert(lineAccountLinks)
        .values({ accountId: a.accountId, tenantId: vendor.tenantId, lineUserId, linkedAt: Date.now() });
      await server.ctx.db
        .insert(lineContacts)
        .values({ tenantId: vendor.tenantId, kind: 'user', lineId: lineUserId, active: true, updatedAt: Date.now() });
    }
    return { ...a, lineUserId };
  };
  const subscribe = async (who: TBuiltAccount, body: TSubscriptionSettings) =>
    expect((await server.api('PUT', notificationPaths.device(device().tangramId), { token: who.token, body })).status).toBe(200);
  const pushesOf = (alertId: number) => server.ctx.db.select().from(lineOutbox).where(eq(lineOutbox.alertId, alertId));

  it("pushes to a subscriber's linked LINE user in its language, and skips one without a link", async () => {
    const en = await person('en', true);
    const unlinked = await person('zh-TW', false);
    await subscribe(en, { levels: ['alert'], channels: ['line'] });
    await subscribe(unlinked, { levels: ['alert'], channels: ['line', 'email'] });
    const alertId = await insertAlert(server.ctx.db, device().id, { level: 'alert' });
    await createRuleNotifier(server.ctx).notify(notificationOf(project, device().id, alertId, 'alert', { projectEmail: false }));
    const pushes = await pushesOf(alertId);
    expect(pushes.map((p) => [p.to, p.accountId])).toEqual([[en.lineUserId, en.accountId]]);
    expect(pushes[0].text.split('\n')[0]).toMatch(/^\[Tessera\]\[Alert\] Too hot — dev /);
    expect(pushes[0].text).toContain('15 Jan 2026, 04:05:06 UTC');
  });

  it("pushes once to a person reached by the project's LINE group and by its own subscription", async () => {
    const zh = await person('zh-TW', true);
    await subscribe(zh, { levels: ['early_warning'], channels: ['line'] });
    const [group] = await server.ctx.db
      .insert(lineGroups)
      .values({ tenantId: vendor.tenantId, name: `ops ${seq}`, levels: ['early_warning'], updatedAt: Date.now() })
      .returning();
    await server.ctx.db.insert(lineGroupProjects).values({ groupId: group.id, projectId: project.projectId });
    await server.ctx.db.insert(lineGroupMembers).values({ groupId: group.id, accountId: zh.accountId });
    const alertId = await insertAlert(server.ctx.db, device().id, { level: 'early_warning' });
    await createRuleNotifier(server.ctx).notify(
      notificationOf(project, device().id, alertId, 'early_warning', { projectEmail: false, projectLine: true }),
    );
    const pushes = (await pushesOf(alertId)).filter((p) => p.to === zh.lineUserId);
    expect(pushes).toHaveLength(1);
    expect(pushes[0].groupId).toBe(group.id);
    expect(pushes[0].text).toContain('[預警]');
  });
});
