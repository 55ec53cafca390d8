import { ErrorCode, paths, type TDeviceCredentials } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { sha256 } from '../../core/crypto.js';
import { deviceAccessTokens } from '../../db/schema.js';

type TError = { code: string; message: string };

/** Connects with ThingsBoard's login: the access token as username, no password. */
function connectWithToken(url: string, token: string): Promise<MqttClient> {
  return mqtt.connectAsync(url, { username: token, reconnectPeriod: 0, connectTimeout: 5_000 });
}

/** The CONNACK refusal code of a token login, or 0 when accepted (the client is then closed). */
async function tokenLoginCode(url: string, token: string): Promise<number> {
  try {
    await (await connectWithToken(url, token)).endAsync();
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

describe(`a device's access token (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let otherVendor: TBuiltAccount;
  let dev: TBuiltDevice;
  let spare: TBuiltDevice;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    otherVendor = await buildVendor(server);
    [dev, spare] = (await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 })).devices;
    await authorise(server.ctx.db, dev.id, user.accountId);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(() => server.stop());

  const call = (method: 'GET' | 'POST', tangramId: string, token?: string) =>
    server.api<TDeviceCredentials & TError>(method, paths.deviceCredentials(tangramId), { token });
  const stored = async (id: number) =>
    (await server.ctx.db.select().from(deviceAccessTokens).where(eq(deviceAccessTokens.deviceId, id)))[0];

  it('401 without a token; 403 for a user of the tenant, even one authorised to the device', async () => {
    expect((await call('GET', dev.tangramId)).status).toBe(401);
    expect((await call('POST', dev.tangramId)).status).toBe(401);
    expect((await call('GET', dev.tangramId, user.token)).status).toBe(403);
    expect((await call('POST', dev.tangramId, user.token)).status).toBe(403);
    expect(await stored(dev.id)).toBeUndefined();
  });

  it("404 for another tenant's device and a missing one; 400 for a malformed id", async () => {
    const foreign = await call('POST', dev.tangramId, otherVendor.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect((await call('GET', dev.tangramId, otherVendor.token)).status).toBe(404);
    expect((await call('GET', 'F'.repeat(dev.tangramId.length), vendor.token)).status).toBe(404);
    expect((await call('GET', 'not-a-tangram-id', vendor.token)).status).toBe(400);
    expect(await stored(dev.id)).toBeUndefined();
  });

  it('403 AUTH_SESSION_REQUIRED when an API key rotates; an API key may read the masked token', async () => {
    const key = await server.api<{ key: string }>('POST', paths.apiKeys, {
      token: vendor.token,
      body: { name: 'script', expires_at: null },
    });
    expect(key.status).toBe(201);
    const byKey = await call('POST', dev.tangramId, key.body.key);
    expect(byKey.status).toBe(403);
    expect(byKey.body.code).toBe(ErrorCode.SessionRequired);
    expect((await call('GET', dev.tangramId, key.body.key)).status).toBe(200);
  });

  it('GET before any token: none issued; POST answers the full token once, GET then only masked', async () => {
    const before = await call('GET', dev.tangramId.toLowerCase(), vendor.token);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      tangram_id: dev.tangramId,
      credentials_type: 'ACCESS_TOKEN',
      access_token: null,
      access_token_masked: null,
      issued_at: null,
    });
    const issued = await call('POST', dev.tangramId, vendor.token);
    expect(issued.status).toBe(200);
    expect(issued.body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const token = issued.body.access_token as string;
    expect(issued.body.access_token_masked).toBe(`••••••••${token.slice(-4)}`);
    const row = await stored(dev.id);
    expect(row.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const after = await call('GET', dev.tangramId, vendor.token);
    expect(after.body.access_token).toBeNull();
    expect(after.body.access_token_masked).toBe(issued.body.access_token_masked);
    expect(after.body.issued_at).toBe(issued.body.issued_at);
    expect(JSON.stringify(after.body)).not.toContain(token);
    expect(await stored(spare.id)).toBeUndefined();
  });

  it('rotating disconnects the client logged in with the old token within a second; the old token is refused, the new accepted', async () => {
    const first = (await call('POST', dev.tangramId, vendor.token)).body.access_token as string;
    const connected = await connectWithToken(server.mqttUrl, first);
    clients.push(connected);
    const closed = new Promise<number>((resolve) => connected.once('close', () => resolve(Date.now())));
    const rotated = await call('POST', dev.tangramId, vendor.token);
    const answeredAt = Date.now();
    expect(rotated.status).toBe(200);
    const closedAt = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(-1), 1_000))]);
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt - answeredAt).toBeLessThan(1_000);
    expect(await tokenLoginCode(server.mqttUrl, first)).toBe(5);
    expect(await tokenLoginCode(server.mqttUrl, rotated.body.access_token as string)).toBe(0);
  });

  it('documents both routes in /openapi.json', async () => {
    const doc = await server.api<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    const route = doc.body.paths[paths.deviceCredentials('{tangramId}')];
    expect(route).toHaveProperty('get');
    expect(route).toHaveProperty('post');
  });
});
