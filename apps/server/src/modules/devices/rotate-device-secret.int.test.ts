import { ErrorCode, paths, type TDeviceSecret } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { sha256 } from '../../core/crypto.js';
import { devices } from '../../db/schema.js';
import { connectMqtt } from '../ingest/ingest-test-kit.js';

type TError = { code: string; message: string };

/** The CONNACK refusal code of a device login with `secret`, or 0 when it was accepted (the client is then closed). */
async function loginCode(url: string, tangramId: string, secret: string): Promise<number> {
  try {
    await (await connectMqtt(url, tangramId, secret)).endAsync();
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

describe(`regenerating a device's MQTT secret (${TEST_DB_KIND})`, () => {
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
    // Authorised to the device directly (every permission but managing access): still not allowed to rotate.
    await authorise(server.ctx.db, dev.id, user.accountId);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(() => server.stop());

  const rotate = (tangramId: string, token?: string) =>
    server.api<TDeviceSecret & TError>('POST', paths.deviceSecret(tangramId), { token });
  const storedHash = async (id: number) => (await server.ctx.db.select().from(devices).where(eq(devices.id, id)))[0].secretHash;

  it('401 without a token; 403 for a user of the tenant, even one authorised to the device; the secret is unchanged', async () => {
    const before = await storedHash(dev.id);
    expect((await rotate(dev.tangramId)).status).toBe(401);
    const byUser = await rotate(dev.tangramId, user.token);
    expect(byUser.status).toBe(403);
    expect(byUser.body.device_secret).toBeUndefined();
    expect(await storedHash(dev.id)).toBe(before);
  });

  it("403 AUTH_SESSION_REQUIRED for the vendor's own API key: only a signed-in person regenerates credentials", async () => {
    const key = await server.api<{ key: string }>('POST', paths.apiKeys, {
      token: vendor.token,
      body: { name: 'script', expires_at: null },
    });
    expect(key.status).toBe(201);
    const before = await storedHash(dev.id);
    const byKey = await rotate(dev.tangramId, key.body.key);
    expect(byKey.status).toBe(403);
    expect(byKey.body.code).toBe(ErrorCode.SessionRequired);
    expect(await storedHash(dev.id)).toBe(before);
  });

  it("404 for another tenant's device and for a device that does not exist", async () => {
    const before = await storedHash(dev.id);
    const foreign = await rotate(dev.tangramId, otherVendor.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect(await storedHash(dev.id)).toBe(before);
    expect((await rotate('F'.repeat(dev.tangramId.length), vendor.token)).status).toBe(404);
    expect((await rotate('not-a-tangram-id', vendor.token)).status).toBe(400);
  });

  it('200 answers a new 256-bit secret once; only its SHA-256 is stored; the other devices keep theirs', async () => {
    const spareBefore = await storedHash(spare.id);
    const res = await rotate(dev.tangramId.toLowerCase(), vendor.token);
    expect(res.status).toBe(200);
    expect(res.body.tangram_id).toBe(dev.tangramId);
    expect(res.body.device_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.device_secret).not.toBe(dev.secret);
    expect(await storedHash(dev.id)).toBe(sha256(res.body.device_secret));
    expect(await storedHash(spare.id)).toBe(spareBefore);
    const detail = await server.api<Record<string, unknown>>('GET', paths.deviceV2(dev.tangramId), { token: vendor.token });
    expect(JSON.stringify(detail.body)).not.toContain(res.body.device_secret);
    dev = { ...dev, secret: res.body.device_secret };
  });

  it('disconnects the device connected with the old secret within a second, refuses the old secret (CONNACK 5), accepts the new', async () => {
    const connected = await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret);
    clients.push(connected);
    const closed = new Promise<number>((resolve) => connected.once('close', () => resolve(Date.now())));
    const res = await rotate(dev.tangramId, vendor.token);
    const answeredAt = Date.now();
    expect(res.status).toBe(200);
    const closedAt = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(-1), 1_000))]);
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt - answeredAt).toBeLessThan(1_000);

    expect(await loginCode(server.mqttUrl, dev.tangramId, dev.secret)).toBe(5);
    expect(await loginCode(server.mqttUrl, dev.tangramId, res.body.device_secret)).toBe(0);
    expect(await loginCode(server.mqttUrl, spare.tangramId, spare.secret)).toBe(0);
  });

  it('documents the route in /openapi.json', async () => {
    const doc = await server.api<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    expect(doc.body.paths[paths.deviceSecret('{tangramId}')]).toHaveProperty('post');
  });
});
