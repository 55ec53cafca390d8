import { eq } from 'drizzle-orm';
import { LINE_LINK_PAGE, linePaths, type TLineChats } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineContacts, lineWebhookEvents } from '../../db/schema.js';
import { lineEvents, signLine, startFakeLine, webhookBody, type TFakeLine } from '../../../test/fake-line.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { lastReplyText, lineGroupId, lineUserId, postWebhook, setupChannel, type TTestChannel } from './line.fixtures.js';

describe(`LINE webhook (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let fake: TFakeLine;
  let vendor: TBuiltAccount;
  let channel: TTestChannel;
  beforeAll(async () => {
    fake = await startFakeLine();
    server = await startTestServer({ lineApiBase: fake.url });
    vendor = await buildVendor(server);
    channel = await setupChannel(server, vendor);
  });
  afterAll(async () => {
    await server.stop();
    await fake.stop();
  });
  const contacts = () => server.ctx.db.select().from(lineContacts).where(eq(lineContacts.tenantId, vendor.tenantId));
  const eventIds = () => server.ctx.db.select().from(lineWebhookEvents).where(eq(lineWebhookEvents.tenantId, vendor.tenantId));

  it('refuses an unsigned, wrongly signed or tampered call with 401 and stores nothing', async () => {
    const follow = lineEvents.follow(lineUserId());
    const payload = webhookBody([follow]);
    const goodSignature = signLine(payload, channel.channelSecret);
    const tampered = payload.replace('"follow"', '"unfollow"');
    const attempts = [
      { headers: {}, payload },
      { headers: { 'x-line-signature': signLine(payload, 'ffffffffffffffffffffffffffffffff') }, payload },
      { headers: { 'x-line-signature': 'not base64 at all' }, payload },
      { headers: { 'x-line-signature': goodSignature }, payload: tampered },
    ];
    for (const a of attempts) {
      const res = await server.app.inject({
        method: 'POST',
        url: channel.webhookPath,
        headers: { 'content-type': 'application/json', ...a.headers },
        payload: a.payload,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'LINE_SIGNATURE_INVALID' });
    }
    expect(await contacts()).toEqual([]);
    expect(await eventIds()).toEqual([]);
    expect(fake.requests).toEqual([]);
  });

  it('answers 404 for a webhook id no tenant has', async () => {
    const payload = webhookBody([]);
    const res = await server.app.inject({
      method: 'POST',
      url: linePaths.webhook('nobody-has-this-id'),
      headers: { 'content-type': 'application/json', 'x-line-signature': signLine(payload, channel.channelSecret) },
      payload,
    });
    expect(res.statusCode).toBe(404);
  });

  it("accepts LINE's verify call (no events) and a signed body that is not LINE's with 400", async () => {
    expect((await postWebhook(server, channel, [])).statusCode).toBe(200);
    const payload = '{"events":"nope"}';
    const res = await server.app.inject({
      method: 'POST',
      url: channel.webhookPath,
      headers: { 'content-type': 'application/json', 'x-line-signature': signLine(payload, channel.channelSecret) },
      payload,
    });
    expect(res.statusCode).toBe(400);
  });

  it('remembers followers and group chats, with their names from LINE, and forgets them on unfollow and leave', async () => {
    const user = lineUserId();
    const group = lineGroupId();
    fake.names.set(user, '王小明');
    fake.names.set(group, '機房值班群');
    expect((await postWebhook(server, channel, [lineEvents.follow(user), lineEvents.join(group)])).statusCode).toBe(200);
    expect((await contacts()).map((c) => [c.kind, c.lineId, c.name, c.active]).sort()).toEqual(
      [
        ['group', group, '機房值班群', true],
        ['user', user, '王小明', true],
      ].sort(),
    );
    const welcome = fake.calls('/v2/bot/message/reply')[0];
    expect(welcome.headers.authorization).toBe(`Bearer ${channel.accessToken}`);
    expect((welcome.body as { messages: { type: string; text: string }[] }).messages[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('綁定'),
    });
    expect(fake.calls(`/v2/bot/profile/${user}`)).toHaveLength(1);
    expect(fake.calls(`/v2/bot/group/${group}/summary`)).toHaveLength(1);

    const chats = await server.api<TLineChats>('GET', linePaths.chats, { token: vendor.token });
    expect(chats.body.data).toEqual([expect.objectContaining({ kind: 'group', name: '機房值班群', joined: true })]);

    await postWebhook(server, channel, [lineEvents.unfollow(user), lineEvents.leave(group)]);
    expect((await contacts()).every((c) => !c.active)).toBe(true);
  });

  it('handles a redelivered event once', async () => {
    const event = lineEvents.text(lineUserId(), 'link');
    const repliesBefore = fake.calls('/v2/bot/message/reply').length;
    expect((await postWebhook(server, channel, [event])).json()).toEqual({ handled: 1 });
    const again = { ...event, deliveryContext: { isRedelivery: true } };
    expect((await postWebhook(server, channel, [again])).json()).toEqual({ handled: 0 });
    expect(fake.calls('/v2/bot/message/reply')).toHaveLength(repliesBefore + 1);
    expect(fake.calls(/\/linkToken$/)).toHaveLength(1);
  });

  it('answers "綁定" in a 1:1 chat with a link token from LINE and the console link page', async () => {
    const user = lineUserId();
    await postWebhook(server, channel, [lineEvents.text(user, '  綁定 ')]);
    const issue = fake.calls(`/v2/bot/user/${user}/linkToken`);
    expect(issue).toHaveLength(1);
    expect(issue[0]).toMatchObject({
      method: 'POST',
      headers: expect.objectContaining({ authorization: `Bearer ${channel.accessToken}` }),
    });
    const reply = fake.calls('/v2/bot/message/reply').at(-1)!;
    const text = lastReplyText(fake);
    const url = new URL(/https?:\/\/\S+/.exec(text)![0]);
    expect(url.pathname).toBe(LINE_LINK_PAGE);
    expect(url.searchParams.get('linkToken')).toMatch(new RegExp(`^lt-${user}-`));
    expect((reply.body as { replyToken: string }).replyToken).toMatch(/^[0-9a-f]{32}$/);

    const before = fake.requests.length;
    await postWebhook(server, channel, [lineEvents.text(user, '今天天氣如何')]);
    expect(fake.requests.length).toBe(before);
  });

  it('answers 502 when LINE is down so that LINE redelivers, and handles the redelivery', async () => {
    const event = lineEvents.text(lineUserId(), 'link');
    fake.mode = 'down';
    const res = await postWebhook(server, channel, [event]);
    fake.mode = 'ok';
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'LINE_UPSTREAM_ERROR' });
    const redelivered = await postWebhook(server, channel, [{ ...event, deliveryContext: { isRedelivery: true } }]);
    expect(redelivered.json()).toEqual({ handled: 1 });
    expect(lastReplyText(fake)).toContain(LINE_LINK_PAGE);
  });
});
