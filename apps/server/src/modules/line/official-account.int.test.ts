import { eq } from 'drizzle-orm';
import { linePaths, type TLineOfficialAccountState } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineOfficialAccounts } from '../../db/schema.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { startTwoTenants, type TTwoTenants } from '../../../test/tenants.js';

const SECRET = '0123456789abcdef0123456789abcdef';
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789longtoken';
const body = { channel_id: '1650000001', channel_secret: SECRET, access_token: TOKEN, bot_basic_id: '@123abcde' };

describe(`Line official account (${TEST_DB_KIND})`, () => {
  let t: TTwoTenants;
  beforeAll(async () => {
    t = await startTwoTenants();
  });
  afterAll(() => t.server.stop());
  const get = (token?: string) => t.server.api<TLineOfficialAccountState>('GET', linePaths.officialAccount, { token });

  it('answers 401 without a token and 403 to a user, for every verb', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      expect((await t.server.api(method, linePaths.officialAccount, { body })).status).toBe(401);
      expect((await t.server.api(method, linePaths.officialAccount, { token: t.user.token, body })).status).toBe(403);
    }
  });

  it('is empty until saved, then answers the account with masked secrets and the webhook URL', async () => {
    expect((await get(t.vendor.token)).body).toEqual({ account: null });
    const saved = await t.server.api<TLineOfficialAccountState>('PUT', linePaths.officialAccount, { token: t.vendor.token, body });
    expect(saved.status).toBe(200);
    const account = saved.body.account!;
    expect(account).toMatchObject({
      channel_id: '1650000001',
      bot_basic_id: '@123abcde',
      channel_secret: '••••cdef',
      access_token: '••••oken',
    });
    expect(account.webhook_url).toMatch(/^http:\/\/localhost(:\d+)?\/notification\/v1\/line\/webhook\/[A-Za-z0-9_-]{20,}$/);
    expect((await get(t.vendor.token)).body).toEqual(saved.body);
    expect(JSON.stringify((await get(t.vendor.token)).body)).not.toContain(SECRET);
  });

  it('stores the secrets encrypted, never in plain text', async () => {
    const [row] = await t.server.ctx.db.select().from(lineOfficialAccounts).where(eq(lineOfficialAccounts.tenantId, t.vendor.tenantId));
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    expect(row.channelSecretEnc).toMatch(/^v1\./);
  });

  it('keeps the stored secrets when a PUT leaves them out, and replaces them when given', async () => {
    const kept = await t.server.api<TLineOfficialAccountState>('PUT', linePaths.officialAccount, {
      token: t.vendor.token,
      body: { channel_id: '1650000001', bot_basic_id: '@renamed' },
    });
    expect(kept.body.account).toMatchObject({ bot_basic_id: '@renamed', channel_secret: '••••cdef', access_token: '••••oken' });
    const replaced = await t.server.api<TLineOfficialAccountState>('PUT', linePaths.officialAccount, {
      token: t.vendor.token,
      body: { ...body, access_token: 'another-token-9999' },
    });
    expect(replaced.body.account?.access_token).toBe('••••9999');
  });

  it('refuses a first save without secrets and malformed fields with 400', async () => {
    const first = await t.server.api<{ code: string }>('PUT', linePaths.officialAccount, {
      token: t.other.token,
      body: { channel_id: '1650000002', bot_basic_id: '@x' },
    });
    expect(first.status).toBe(400);
    for (const bad of [
      { channel_id: 'abc' },
      { channel_secret: 'short' },
      { bot_basic_id: 'no-at' },
      { access_token: 'has space in it' },
    ]) {
      const res = await t.server.api<{ code: string }>('PUT', linePaths.officialAccount, {
        token: t.other.token,
        body: { ...body, ...bad },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('documents the LINE routes in the OpenAPI document', async () => {
    const doc = await t.server.api<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    for (const path of [
      '/notification/v1/line/official-account',
      '/notification/v1/line/webhook/{webhookId}',
      '/notification/v1/message-flow/{id}/test',
    ]) {
      expect(Object.keys(doc.body.paths)).toContain(path);
    }
  });

  it('keeps tenants apart: another vendor sees only its own (none), and deleting is per tenant', async () => {
    expect((await get(t.other.token)).body).toEqual({ account: null });
    expect((await t.server.api('DELETE', linePaths.officialAccount, { token: t.other.token })).status).toBe(404);
    expect((await get(t.vendor.token)).body.account).not.toBeNull();
    expect((await t.server.api('DELETE', linePaths.officialAccount, { token: t.vendor.token })).status).toBe(204);
    expect((await get(t.vendor.token)).body).toEqual({ account: null });
  });
});
