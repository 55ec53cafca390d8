/**
 * Revoking a device's sessions on the embedded broker (device-revocation.ts): its open connection closes at once,
 * its old secret is refused at the next login although the directory had it cached, and a second replica on the
 * same database (PostgreSQL) closes its connection of the device too, through NOTIFY.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { openScratchPostgres, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { connectMqtt, loginCode, replaceDeviceSecret, waitUntil } from './ingest-test-kit.js';

describe(`device revocation on the embedded broker (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let project: TBuiltProject;
  beforeAll(async () => {
    server = await startTestServer();
    project = await buildDeviceProject(server.ctx.db, { count: 2 });
  });
  afterAll(() => server.stop());

  it('closes the device at once and refuses its old secret, though it was cached', async () => {
    const [d] = project.devices;
    const dev = await connectMqtt(server.mqttUrl, d.tangramId, d.secret);
    const closed = new Promise<void>((resolve) => dev.once('close', () => resolve()));
    const newSecret = await replaceDeviceSecret(server.ctx.db, d.id);
    // Without revocation the cached row would let the old secret in for up to 10 s.
    expect(await loginCode(server.mqttUrl, d.tangramId, d.secret)).toBe(0);
    const t0 = Date.now();
    await server.ctx.bus.revokeDevice(d.tangramId);
    await closed;
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(await loginCode(server.mqttUrl, d.tangramId, d.secret)).toBe(5);
    expect(await loginCode(server.mqttUrl, d.tangramId, newSecret)).toBe(0);
    dev.end(true);
  });

  it.skipIf(TEST_DB_KIND !== 'postgres')('reaches the device on another replica through NOTIFY', async () => {
    const database = await openScratchPostgres(process.env.DATABASE_URL ?? '', 4, 'tessera_revoke');
    const a = await startTestServer({}, database);
    const b = await startTestServer({}, database);
    try {
      const [d] = (await buildDeviceProject(a.ctx.db, { count: 1 })).devices;
      const dev = await connectMqtt(b.mqttUrl, d.tangramId, d.secret);
      let closed = false;
      dev.once('close', () => {
        closed = true;
      });
      await a.ctx.bus.revokeDevice(d.tangramId);
      await waitUntil(() => closed, 3_000);
      dev.end(true);
    } finally {
      await a.stop();
      await b.stop();
      await database.close();
    }
  });
});
