import {
  LINE_GROUP_MEMBERS_MAX,
  LINE_MESSAGES,
  linePaths,
  type TLineChats,
  type TLineGroup,
  type TLineGroupInput,
  type TLineGroupTestResult,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineEvents, startFakeLine, type TFakeLine } from '../../../test/fake-line.js';
import type { TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startTwoTenants } from '../../../test/tenants.js';
import { createProjectVia } from '../projects/catalogue.fixtures.js';
import { linkAccount, lineGroupId, lineUserId, postWebhook, setupChannel, type TTestChannel } from './line.fixtures.js';

describe(`LINE message-flow groups (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let fake: TFakeLine;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let other: TBuiltAccount;
  let channel: TTestChannel;
  let projectId: number;
  let chatIds: number[];
  const userLine = lineUserId();
  const chatLines = Array.from({ length: LINE_GROUP_MEMBERS_MAX }, lineGroupId);
  beforeAll(async () => {
    fake = await startFakeLine();
    ({ server, vendor, user, other } = await startTwoTenants({ lineApiBase: fake.url }));
    channel = await setupChannel(server, vendor);
    projectId = (await createProjectVia(server, vendor.token, '冷凍庫')).id;
    await linkAccount(server, fake, channel, user, userLine);
    fake.names.set(chatLines[0], '維運群組');
    await postWebhook(server, channel, chatLines.map(lineEvents.join));
    const chats = await server.api<TLineChats>('GET', linePaths.chats, { token: vendor.token });
    chatIds = chats.body.data.map((c) => c.id);
  });
  afterAll(async () => {
    await server.stop();
    await fake.stop();
  });
  const input = (over: Partial<TLineGroupInput> = {}): TLineGroupInput => ({
    name: '值班',
    project_ids: [projectId],
    levels: ['alert', 'early_warning'],
    account_ids: [user.accountId],
    chat_ids: [chatIds[0]],
    ...over,
  });
  const create = (body: TLineGroupInput, token = vendor.token) =>
    server.api<TLineGroup & { code?: string; message?: string }>('POST', linePaths.groups, { token, body });

  it('answers 401 without a token and 403 to a user on every route', async () => {
    const routes = [
      ['GET', linePaths.groups],
      ['POST', linePaths.groups],
      ['GET', linePaths.group(1)],
      ['PUT', linePaths.group(1)],
      ['DELETE', linePaths.group(1)],
      ['POST', linePaths.groupTest(1)],
      ['GET', linePaths.chats],
    ] as const;
    for (const [method, url] of routes) {
      expect((await server.api(method, url, { body: input() })).status).toBe(401);
      expect((await server.api(method, url, { token: user.token, body: input() })).status).toBe(403);
    }
  });

  it('creates, reads, updates and deletes a group', async () => {
    const created = await create(input());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: '值班',
      levels: ['alert', 'early_warning'],
      projects: [{ id: projectId, name: '冷凍庫' }],
      members: [
        { kind: 'account', id: user.accountId, label: user.email, deliverable: true },
        { kind: 'chat', id: chatIds[0], label: '維運群組', deliverable: true },
      ],
    });
    const id = created.body.id;
    expect((await server.api<TLineGroup>('GET', linePaths.group(id), { token: vendor.token })).body).toEqual(created.body);
    const updated = await server.api<TLineGroup>('PUT', linePaths.group(id), {
      token: vendor.token,
      body: input({ name: '夜班', levels: ['remind'], project_ids: [], chat_ids: [] }),
    });
    expect(updated.body).toMatchObject({ name: '夜班', levels: ['remind'], projects: [], members: [{ kind: 'account' }] });
    const list = await server.api<{ data: TLineGroup[] }>('GET', linePaths.groups, { token: vendor.token });
    expect(list.body.data.map((g) => g.name)).toEqual(['夜班']);
    expect((await server.api('DELETE', linePaths.group(id), { token: vendor.token })).status).toBe(204);
    expect((await server.api('GET', linePaths.group(id), { token: vendor.token })).status).toBe(404);
  });

  it(`refuses more than ${LINE_GROUP_MEMBERS_MAX} members with the spec's connection-limit message`, async () => {
    const full = await create(input({ name: '全部', account_ids: [], chat_ids: chatIds }));
    expect(full.status).toBe(201);
    expect(full.body.members).toHaveLength(LINE_GROUP_MEMBERS_MAX);
    const over = await create(input({ name: '太多', chat_ids: chatIds }));
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'LINE_CONNECTION_LIMIT', message: LINE_MESSAGES.connectionLimit });
    const put = await server.api<{ code: string }>('PUT', linePaths.group(full.body.id), {
      token: vendor.token,
      body: input({ name: '全部', chat_ids: chatIds }),
    });
    expect(put.body.code).toBe('LINE_CONNECTION_LIMIT');
  });

  it('refuses a taken name, foreign projects, unlinked accounts and unknown chats', async () => {
    await create(input({ name: '重複' }));
    expect((await create(input({ name: '重複' }))).body.code).toBe('LINE_GROUP_NAME_TAKEN');
    const foreignProject = (await createProjectVia(server, other.token, '別人的')).id;
    expect((await create(input({ name: 'a', project_ids: [foreignProject] }))).status).toBe(400);
    expect((await create(input({ name: 'b', account_ids: [vendor.accountId] }))).status).toBe(400);
    expect((await create(input({ name: 'c', chat_ids: [999_999] }))).status).toBe(400);
    expect((await create(input({ name: 'd', levels: [] }))).status).toBe(400);
  });

  it("answers 404 for another tenant's group on every route", async () => {
    const mine = (await create(input({ name: '隔離' }))).body.id;
    expect((await server.api('GET', linePaths.group(mine), { token: other.token })).status).toBe(404);
    expect(
      (await server.api('PUT', linePaths.group(mine), { token: other.token, body: input({ account_ids: [], chat_ids: [] }) })).status,
    ).toBe(404);
    expect((await server.api('POST', linePaths.groupTest(mine), { token: other.token })).status).toBe(404);
    expect((await server.api('DELETE', linePaths.group(mine), { token: other.token })).status).toBe(404);
    expect((await server.api<{ data: TLineGroup[] }>('GET', linePaths.groups, { token: other.token })).body.data).toEqual([]);
  });

  it('pushes a test message to every member now, with the channel token and a retry key each', async () => {
    const group = (await create(input({ name: '測試推播' }))).body;
    const before = fake.calls('/v2/bot/message/push').length;
    const res = await server.api<TLineGroupTestResult>('POST', linePaths.groupTest(group.id), { token: vendor.token });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { kind: 'account', id: user.accountId, label: user.email, status: 'sent', error: null },
      { kind: 'chat', id: chatIds[0], label: '維運群組', status: 'sent', error: null },
    ]);
    const pushes = fake.calls('/v2/bot/message/push').slice(before);
    expect(pushes.map((p) => p.body)).toEqual([
      { to: userLine, messages: [{ type: 'text', text: expect.stringContaining('測試推播') }] },
      { to: chatLines[0], messages: [{ type: 'text', text: expect.stringContaining('測試推播') }] },
    ]);
    for (const p of pushes) {
      expect(p.headers.authorization).toBe(`Bearer ${channel.accessToken}`);
      expect(p.headers['content-type']).toBe('application/json');
      expect(p.headers['x-line-retry-key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(pushes.map((p) => p.headers['x-line-retry-key'])).size).toBe(2);
  });

  it('reports a test push LINE did not take as pending, and one over the quota with the spec message', async () => {
    const group = (await create(input({ name: '故障', chat_ids: [] }))).body;
    fake.mode = 'down';
    const down = await server.api<TLineGroupTestResult>('POST', linePaths.groupTest(group.id), { token: vendor.token });
    fake.mode = 'monthly_limit';
    const limited = await server.api<TLineGroupTestResult>('POST', linePaths.groupTest(group.id), { token: vendor.token });
    fake.mode = 'ok';
    expect(down.body.results[0]).toMatchObject({ status: 'pending', error: expect.stringContaining('503') });
    expect(limited.body.results[0]).toMatchObject({ status: 'quota_exceeded', error: LINE_MESSAGES.quotaExceeded });
  });

  it('answers 400 LINE_NO_TARGETS for a group nobody in it can be reached', async () => {
    const empty = (await create(input({ name: '空的', account_ids: [], chat_ids: [] }))).body;
    const res = await server.api<{ code: string }>('POST', linePaths.groupTest(empty.id), { token: vendor.token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('LINE_NO_TARGETS');
  });
});
