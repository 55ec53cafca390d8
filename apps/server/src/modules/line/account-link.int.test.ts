import { eq } from 'drizzle-orm';
import {
  LINE_ACCOUNT_LINK_URL,
  LINE_LINK_NONCE_TTL_MS,
  linePaths,
  type TAccountLinkRedirect,
  type TAccountLinkStatus,
  type TLineLinkedUser,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineAccountLinks, lineLinkNonces } from '../../db/schema.js';
import { lineEvents, startFakeLine, type TFakeLine } from '../../../test/fake-line.js';
import { buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startTwoTenants } from '../../../test/tenants.js';
import { lastReplyText, linkAccount, linkTokenOf, lineUserId, postWebhook, setupChannel, type TTestChannel } from './line.fixtures.js';

describe(`LINE account link (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let fake: TFakeLine;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let other: TBuiltAccount;
  let channel: TTestChannel;
  let otherChannel: TTestChannel;
  beforeAll(async () => {
    fake = await startFakeLine();
    ({ server, vendor, user, other } = await startTwoTenants({ lineApiBase: fake.url }));
    channel = await setupChannel(server, vendor);
    otherChannel = await setupChannel(server, other);
  });
  afterAll(async () => {
    await server.stop();
    await fake.stop();
  });
  const status = (token: string) => server.api<TAccountLinkStatus>('GET', linePaths.accountLink, { token });
  const linkOf = async (accountId: number) =>
    (await server.ctx.db.select().from(lineAccountLinks).where(eq(lineAccountLinks.accountId, accountId)))[0];
  const start = async (account: TBuiltAccount, lineUser: string, onChannel = channel) => {
    await postWebhook(server, onChannel, [lineEvents.text(lineUser, 'link')]);
    const res = await server.api<TAccountLinkRedirect>('POST', linePaths.accountLink, {
      token: account.token,
      body: { linkToken: linkTokenOf(lastReplyText(fake)) },
    });
    return { res, nonce: new URL(res.body.url).searchParams.get('nonce')! };
  };

  it('answers 401 to every account-link verb without a token, and GET user is vendor only', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await server.api(method, linePaths.accountLink, { body: { linkToken: 'x' } })).status).toBe(401);
    }
    expect((await server.api('GET', linePaths.users)).status).toBe(401);
    expect((await server.api('GET', linePaths.users, { token: user.token })).status).toBe(403);
  });

  it('links a user account: link token → nonce → LINE user ID, and says so in the account language', async () => {
    expect((await status(user.token)).body).toEqual({ linked: false, linked_at: null, line_name: null, bot_basic_id: '@tessera' });
    const lineUser = lineUserId();
    fake.names.set(lineUser, '陳美玲');
    await postWebhook(server, channel, [lineEvents.follow(lineUser)]);
    const { res, nonce } = await start(user, lineUser);
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(LINE_ACCOUNT_LINK_URL);
    expect(url.searchParams.get('linkToken')).toMatch(/^lt-/);
    expect(nonce.length).toBeGreaterThanOrEqual(10);
    expect(res.body.expires_at).toBeGreaterThan(Date.now() + LINE_LINK_NONCE_TTL_MS - 5_000);
    const [stored] = await server.ctx.db.select().from(lineLinkNonces).where(eq(lineLinkNonces.accountId, user.accountId));
    expect(stored.nonceHash).not.toBe(nonce);

    expect((await postWebhook(server, channel, [lineEvents.accountLink(lineUser, nonce)])).statusCode).toBe(200);
    expect((await linkOf(user.accountId))?.lineUserId).toBe(lineUser);
    expect(lastReplyText(fake)).toContain(user.email);
    const linked = (await status(user.token)).body;
    expect(linked).toMatchObject({ linked: true, line_name: '陳美玲' });
    expect(linked.linked_at).toBeGreaterThan(0);

    const users = await server.api<{ data: TLineLinkedUser[] }>('GET', linePaths.users, { token: vendor.token });
    expect(users.body.data).toEqual([
      expect.objectContaining({ account_id: user.accountId, email: user.email, line_name: '陳美玲', following: true }),
    ]);
    expect((await server.api<{ data: TLineLinkedUser[] }>('GET', linePaths.users, { token: other.token })).body.data).toEqual([]);
  });

  it('uses a nonce once: replaying it links nothing more', async () => {
    const lineUser = lineUserId();
    const { nonce } = await start(vendor, lineUser);
    await postWebhook(server, channel, [lineEvents.accountLink(lineUser, nonce)]);
    expect((await linkOf(vendor.accountId))?.lineUserId).toBe(lineUser);
    await server.api('DELETE', linePaths.accountLink, { token: vendor.token });
    await postWebhook(server, channel, [lineEvents.accountLink(lineUser, nonce)]);
    expect(await linkOf(vendor.accountId)).toBeUndefined();
    expect(lastReplyText(fake)).toContain('未完成');
  });

  it('rejects unknown, expired, failed and other tenants’ nonces', async () => {
    const lineUser = lineUserId();
    await postWebhook(server, channel, [lineEvents.accountLink(lineUser, 'a-nonce-nobody-made-0000')]);
    expect(await linkOf(vendor.accountId)).toBeUndefined();

    const expired = await start(vendor, lineUser);
    await server.ctx.db
      .update(lineLinkNonces)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(lineLinkNonces.accountId, vendor.accountId));
    await postWebhook(server, channel, [lineEvents.accountLink(lineUser, expired.nonce)]);
    expect(await linkOf(vendor.accountId)).toBeUndefined();

    const failed = await start(vendor, lineUser);
    await postWebhook(server, channel, [lineEvents.accountLink(lineUser, failed.nonce, 'failed')]);
    expect(await linkOf(vendor.accountId)).toBeUndefined();

    const foreign = await start(other, lineUser, otherChannel);
    await postWebhook(server, channel, [lineEvents.accountLink(lineUser, foreign.nonce)]);
    expect(await linkOf(other.accountId)).toBeUndefined();
  });

  it('answers 409 LINE_NOT_CONFIGURED to a POST in a tenant without an official account', async () => {
    const lone = await buildVendor(server);
    const res = await server.api<{ code: string }>('POST', linePaths.accountLink, { token: lone.token, body: { linkToken: 'lt-x' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('LINE_NOT_CONFIGURED');
    expect((await server.api('POST', linePaths.accountLink, { token: lone.token, body: {} })).status).toBe(400);
  });

  it('unlinks with DELETE (204), then 404', async () => {
    expect((await server.api('DELETE', linePaths.accountLink, { token: user.token })).status).toBe(204);
    expect((await status(user.token)).body.linked).toBe(false);
    expect((await server.api('DELETE', linePaths.accountLink, { token: user.token })).status).toBe(404);
  });

  it('moves a LINE user to the account that links it last', async () => {
    const lineUser = lineUserId();
    await linkAccount(server, fake, channel, user, lineUser);
    await linkAccount(server, fake, channel, vendor, lineUser);
    expect(await linkOf(user.accountId)).toBeUndefined();
    expect((await linkOf(vendor.accountId))?.lineUserId).toBe(lineUser);
  });
});
