import { sql } from 'drizzle-orm';
import { topics } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { rowsOf, type Database } from '../../db/client.js';
import { connectMqtt } from './ingest-test-kit.js';
import { buildDeviceProject } from '../../../test/device-factory.js';

describe(`ingest drains on close (${TEST_DB_KIND})`, () => {
  let database: Database;
  let server: TTestServer;
  beforeAll(async () => {
    database = await openTestDatabase();
    // A long flush interval: without the drain, the pending batch would still be waiting when close() runs.
    server = await startTestServer({ ingestFlushMs: 2_000 }, database);
  });
  afterAll(async () => {
    await server.stop();
    await database.close();
  });

  it('writes a lone publish at once when no batch is being written, not after INGEST_FLUSH_MS', async () => {
    const [dev] = (await buildDeviceProject(server.ctx.db)).devices;
    const device = await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret);
    try {
      const t0 = performance.now();
      await device.publishAsync(topics.telemetry(dev.tangramId), JSON.stringify({ key: 'temperature', ts: Date.now(), vs: [1] }), {
        qos: 1,
      });
      // The flush interval is 2,000 ms; an idle writer takes the batch on the next turn of the event loop.
      expect(performance.now() - t0).toBeLessThan(1_000);
    } finally {
      await device.endAsync(true);
    }
  });

  it('stores every acknowledged point when the server closes right after the publishes', async () => {
    const [dev] = (await buildDeviceProject(server.ctx.db)).devices;
    const device = await connectMqtt(server.mqttUrl, dev.tangramId, dev.secret);
    const acked: number[] = [];
    const base = 1_650_000_000_000;
    const sends = Array.from({ length: 200 }, (_, i) =>
      device
        .publishAsync(topics.telemetry(dev.tangramId), JSON.stringify({ key: 'temperature', ts: base + i, vs: [i] }), { qos: 1 })
        .then(() => acked.push(base + i))
        .catch(() => undefined),
    );
    await new Promise((r) => setTimeout(r, 100));
    await server.close();
    await Promise.race([Promise.allSettled(sends), new Promise((r) => setTimeout(r, 2_000))]);
    await device.endAsync(true).catch(() => undefined);

    expect(acked.length).toBeGreaterThan(0);
    // Read as every read path does, hot rows and chunks alike: the points are of a cold day (2022), which the
    // storage job's run at start may already be merging into chunks while they arrive.
    const stored = rowsOf<{ ts: number | string }>(
      await database.db.execute(sql`select ts from telemetry_points(${dev.id}, 'temperature', ${base}, ${base + 199})`),
    ).map((r) => Number(r.ts));
    const storedSet = new Set(stored);
    expect(acked.filter((ts) => !storedSet.has(ts))).toEqual([]);
  });
});
