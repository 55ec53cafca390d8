import { topics } from '@tessera/contracts';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { connectMqtt } from './ingest-test-kit.js';

// PGlite has one connection for everything; PostgreSQL gives the ingest writers a pool of their own.
describe.skipIf(TEST_DB_KIND !== 'postgres')('ingest writes through its own pool (postgres)', () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer({}, await openTestDatabase());
  });
  afterAll(async () => {
    await server.stop();
    await server.database.close();
  });

  it('acknowledges a point at once while every connection of the main pool is busy', async () => {
    const [dev] = (await buildDeviceProject(server.ctx.db)).devices;
    const device = await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret);
    const publish = (value: number) =>
      device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [value] }), {
        qos: 1,
      });
    // The device and its project's keys are read (through the main pool) and cached by the first publish.
    await publish(20.5);
    const pool = server.database.pool;
    if (!pool) throw new Error('a PostgreSQL test database has a pool');
    // Fill the main pool (and its queue) with 3 s queries, as a burst of other work would.
    const busy = Array.from({ length: pool.options.max * 2 }, () => pool.query('select pg_sleep(3)'));
    try {
      await new Promise((r) => setTimeout(r, 200));
      expect(pool.waitingCount).toBeGreaterThan(0);
      const t0 = performance.now();
      await publish(21.5);
      expect(performance.now() - t0).toBeLessThan(1_500);
      const ingestPool = (server.database.ingestDb as unknown as { $client: pg.Pool }).$client;
      const stored = await ingestPool.query('select count(*)::int as n from telemetry where device_id = $1', [dev.id]);
      expect(stored.rows[0].n).toBe(2);
    } finally {
      await device.endAsync(true);
      await Promise.allSettled(busy);
    }
  });
});
