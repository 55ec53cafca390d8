/**
 * `npm run sim -- --project <id> --devices N --api … --token …`: devices registered through the real bulk route
 * with a vendor API key, then simulated as real MQTT clients whose telemetry lands in the database.
 */
import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths, type TApiKeyCreated } from '@tessera/contracts';
import { buildVendor } from '../../server/test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../server/test/helpers.js';
import { createProjectVia } from '../../server/src/modules/projects/catalogue.fixtures.js';
import { devices, telemetry } from '../../server/src/db/schema.js';
import { startSimulator } from './index.js';
import { registerDevices } from './register.js';

describe(`simulator --project registration (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('registers N devices with an API key and streams their telemetry into the database', async () => {
    const vendor = await buildVendor(server);
    const key = await server.api<TApiKeyCreated>('POST', paths.apiKeys, { token: vendor.token, body: { name: 'sim', expires_at: null } });
    expect(key.status).toBe(201);
    const project = await createProjectVia(server, vendor.token);

    const sims = await registerDevices({ api: server.httpUrl, token: key.body.key, projectId: project.id, count: 3 });
    expect(sims).toHaveLength(3);
    expect(sims[0].keys).toEqual(['temperature', 'humidity']);
    const rows = await server.ctx.db.select().from(devices).where(eq(devices.projectId, project.id));
    expect(rows.map((r) => r.tangramId).sort()).toEqual(sims.map((s) => s.tangramId).sort());

    const sim = await startSimulator({ url: server.mqttUrl, devices: sims, rateHz: 5, statusPeriodMs: 500 });
    try {
      const ids = rows.map((r) => r.id);
      const deadline = Date.now() + 15_000;
      let stored = 0;
      while (Date.now() < deadline) {
        [{ n: stored }] = await server.ctx.db.select({ n: count() }).from(telemetry).where(inArray(telemetry.deviceId, ids));
        if (stored >= 3 * 2 * 2) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(stored).toBeGreaterThanOrEqual(3 * 2 * 2);
      expect(sim.stats().acked).toBeGreaterThan(0);
    } finally {
      await sim.stop();
    }
  });

  it('says why when the API refuses the registration', async () => {
    await expect(registerDevices({ api: server.httpUrl, token: 'tsk_not-a-key', projectId: 1, count: 1 })).rejects.toThrow(/401/);
  });
});
