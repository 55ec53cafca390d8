import { until } from '../../../test/until.js';
import { eq } from 'drizzle-orm';
import { LINE_MESSAGES, linePaths, type TLineGroup, type TLineGroupInput } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, lineOutbox } from '../../db/schema.js';
import { lineEvents, startFakeLine, type TFakeLine } from '../../../test/fake-line.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import type { TRuleNotification } from '../notifications/types.js';
import { createProjectVia } from '../projects/catalogue.fixtures.js';
import { linkAccount, lineGroupId, lineUserId, postWebhook, setupChannel, type TTestChannel } from './line.fixtures.js';
import { queueLineForProject, queueLineToAccount } from './queue.js';

/** A tenant with a channel, a linked user, a joined group chat, a project and a message-flow group over them. */
interface TTenantSetup {
  vendor: TBuiltAccount;
  user: TBuiltAccount;
  channel: TTestChannel;
  userLine: string;
  chatLine: string;
  projectId: number;
  groupId: number;
}

describe(`LINE push outbox (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let fake: TFakeLine;
  beforeAll(async () => {
    fake = await startFakeLine();
    server = await startTestServer({ lineApiBase: fake.url });
  });
  afterAll(async () => {
    await server.stop();
    await fake.stop();
  });

  async function setupTenant(levels: TLineGroupInput['levels'] = ['alert']): Promise<TTenantSetup> {
    const vendor = await buildVendor(server);
    const user = await buildUser(server, vendor.tenantId);
    const channel = await setupChannel(server, vendor);
    const userLine = lineUserId();
    const chatLine = lineGroupId();
    await linkAccount(server, fake, channel, user, userLine);
    await postWebhook(server, channel, [lineEvents.join(chatLine)]);
    const chats = await server.api<{ data: { id: number }[] }>('GET', linePaths.chats, { token: vendor.token });
    const projectId = (await createProjectVia(server, vendor.token)).id;
    const group = await server.api<TLineGroup>('POST', linePaths.groups, {
      token: vendor.token,
      body: { name: 'ops', project_ids: [projectId], levels, account_ids: [user.accountId], chat_ids: [chats.body.data[0].id] },
    });
    return { vendor, user, channel, userLine, chatLine, projectId, groupId: group.body.id };
  }
  const notification = (t: TTenantSetup, over: Partial<TRuleNotification> = {}): TRuleNotification => ({
    reason: 'opened',
    tenantId: t.vendor.tenantId,
    projectId: t.projectId,
    deviceId: 1,
    alertId: 4242,
    level: 'alert',
    ruleName: 'too hot',
    message: '溫度過高',
    trigger: { key: 'temperature', value: 81 },
    projectEmail: false,
    projectLine: true,
    at: Date.now(),
    ...over,
  });
  const rowsTo = (to: string) => server.ctx.db.select().from(lineOutbox).where(eq(lineOutbox.to, to));
  const settled = (to: string, status: string) =>
    until(async () => {
      const [row] = await rowsTo(to);
      return row?.status === status ? row : undefined;
    });
  const pushesTo = (to: string) => fake.calls('/v2/bot/message/push').filter((p) => (p.body as { to: string }).to === to);

  it('queues a rule notification to the matching groups, per reader language, and the worker pushes it', async () => {
    const t = await setupTenant();
    await server.ctx.db.update(accounts).set({ language: 'en' }).where(eq(accounts.id, t.user.accountId));
    const render = (language: string) => (language === 'en' ? 'EN: too hot' : '警報：溫度過高');
    expect((await queueLineForProject(server.ctx.db, notification(t, { level: 'remind' }), render)).pushes).toBe(0);
    const queued = await queueLineForProject(server.ctx.db, notification(t), render);
    expect(queued.pushes).toBe(2);
    expect([...queued.accountIds]).toEqual([t.user.accountId]);
    const sent = await settled(t.userLine, 'sent');
    expect(sent).toMatchObject({ alertId: 4242, groupId: t.groupId, accountId: t.user.accountId, attempts: 1, lastError: null });
    await settled(t.chatLine, 'sent');
    const [toUser] = pushesTo(t.userLine);
    expect(toUser.headers.authorization).toBe(`Bearer ${t.channel.accessToken}`);
    expect(toUser.headers['x-line-retry-key']).toBe(sent.retryKey);
    expect(toUser.body).toEqual({ to: t.userLine, messages: [{ type: 'text', text: 'EN: too hot' }] });
    expect(pushesTo(t.chatLine)[0].body).toEqual({ to: t.chatLine, messages: [{ type: 'text', text: '警報：溫度過高' }] });
    // A notify action without a level reaches the project's groups whatever their levels.
    expect((await queueLineForProject(server.ctx.db, notification(t, { level: null, alertId: null }), render)).pushes).toBe(2);
  });

  it('loses nothing while LINE is down: the push stays pending with its error and is sent once LINE is back', async () => {
    const t = await setupTenant();
    fake.mode = 'down';
    await queueLineToAccount(server.ctx.db, t.vendor.tenantId, t.user.accountId, '停機測試', null);
    const waiting = await until(async () => {
      const [row] = await rowsTo(t.userLine);
      return row && row.attempts >= 1 ? row : undefined;
    });
    expect(waiting).toMatchObject({ status: 'pending', lastError: 'LINE 503: Service Unavailable' });
    expect(waiting.nextAttemptAt).toBeGreaterThan(Date.now() - 1_000);
    fake.mode = 'ok';
    await server.ctx.db.update(lineOutbox).set({ nextAttemptAt: 0 }).where(eq(lineOutbox.id, waiting.id));
    const sent = await settled(t.userLine, 'sent');
    expect(sent.sentAt).toBeGreaterThan(0);
    expect(pushesTo(t.userLine).map((p) => (p.body as { messages: { text: string }[] }).messages[0].text)).toEqual(['停機測試']);
  });

  it('re-sends the same X-Line-Retry-Key after a lost answer, and LINE delivers it once', async () => {
    const t = await setupTenant();
    fake.mode = 'lost_answer';
    await queueLineToAccount(server.ctx.db, t.vendor.tenantId, t.user.accountId, '只送一次', null);
    const lost = await until(async () => {
      const [row] = await rowsTo(t.userLine);
      return row && row.attempts >= 1 ? row : undefined;
    });
    expect(lost.status).toBe('pending');
    fake.mode = 'ok';
    await server.ctx.db.update(lineOutbox).set({ nextAttemptAt: 0 }).where(eq(lineOutbox.id, lost.id));
    await settled(t.userLine, 'sent');
    const attempts = pushesTo(t.userLine);
    expect(attempts).toHaveLength(2);
    expect(attempts.map((p) => p.headers['x-line-retry-key'])).toEqual([lost.retryKey, lost.retryKey]);
  });

  it('holds pushes over the monthly quota without calling push, with the spec message', async () => {
    const t = await setupTenant();
    fake.quota = { type: 'limited', value: 500, used: 500 };
    try {
      await queueLineToAccount(server.ctx.db, t.vendor.tenantId, t.user.accountId, '超過額度', null);
      const held = await settled(t.userLine, 'quota_exceeded');
      expect(held.lastError).toBe(LINE_MESSAGES.quotaExceeded);
      expect(pushesTo(t.userLine)).toEqual([]);
      expect(fake.calls('/v2/bot/message/quota/consumption').at(-1)?.headers.authorization).toBe(`Bearer ${t.channel.accessToken}`);
    } finally {
      fake.quota = { type: 'none', used: 0 };
    }
  });

  it("marks a push refused with LINE's 429 monthly limit as quota_exceeded, and other 4xx as failed at once", async () => {
    const t = await setupTenant();
    const u = await setupTenant();
    fake.mode = 'monthly_limit';
    await queueLineToAccount(server.ctx.db, t.vendor.tenantId, t.user.accountId, '429', null);
    expect((await settled(t.userLine, 'quota_exceeded')).lastError).toBe(LINE_MESSAGES.quotaExceeded);

    fake.mode = 'unauthorized';
    await queueLineToAccount(server.ctx.db, u.vendor.tenantId, u.user.accountId, '401', null);
    const failed = await settled(u.userLine, 'failed').finally(() => {
      fake.mode = 'ok';
    });
    expect(failed.lastError).toMatch(/^LINE 401: Authentication failed/);
    expect(failed.attempts).toBe(1);
  });

  it('queues to an account only when it has a LINE link in that tenant', async () => {
    const t = await setupTenant();
    expect(await queueLineToAccount(server.ctx.db, t.vendor.tenantId, t.vendor.accountId, 'x', null)).toBe(false);
    const stranger = await buildVendor(server);
    expect(await queueLineToAccount(server.ctx.db, stranger.tenantId, t.user.accountId, 'x', null)).toBe(false);
    await postWebhook(server, t.channel, [lineEvents.unfollow(t.userLine)]);
    expect(await queueLineToAccount(server.ctx.db, t.vendor.tenantId, t.user.accountId, 'x', null)).toBe(false);
  });
});
