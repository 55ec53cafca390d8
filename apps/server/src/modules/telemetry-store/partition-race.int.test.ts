/**
 * Ingest writing points of a day into `telemetry_default` while the storage job attaches that day's partition: a
 * batch routed to the default partition before the attach, and waiting for its lock, is refused by PostgreSQL
 * ("violates partition constraint"); ingest must route it again, never refuse (and acknowledge) its points.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { startDeviceLoad } from '../../../test/device-load.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { until } from '../../../test/until.js';
import { rowsOf } from '../../db/client.js';
import { dayPartitionName, dayStartOf } from './days.js';
import { createDayPartition } from './partitions.js';

describe(`a day partition attached while ingest writes that day (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  // The job off: the test attaches the partition itself, at the worst moment.
  beforeAll(async () => {
    server = await startTestServer({ telemetryStorageIntervalMs: 0 });
  });
  afterAll(() => server.stop());

  it('loses and refuses no acknowledged point', { timeout: 60_000 }, async () => {
    // A light load: each writer takes one message a batch, so a refused batch would be a refused message.
    const project = await buildDeviceProject(server.ctx.db, { count: 2 });
    const load = await startDeviceLoad({ mqttUrl: server.mqttUrl, devices: project.devices, periodMs: 20, pointsPerMessage: 5 });
    try {
      await until(async () => (load.acked() > 200 ? true : undefined), 20_000);
      // The load's points are an hour old; their day has no partition yet, so they went to the default one.
      const day = dayStartOf(Date.now() - 3_600_000);
      await server.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`lock table telemetry_default in access exclusive mode`);
        // Batches routed to the default partition meanwhile wait for its lock, then meet the new partition.
        await tx.execute(sql`select pg_sleep(0.5)`);
        await createDayPartition(tx, day);
      });
      const ackedAtAttach = load.acked();
      await until(async () => (load.acked() > ackedAtAttach + 200 ? true : undefined), 20_000);
    } finally {
      await load.stop();
    }
    expect(await load.lostPoints(server.ctx.db)).toBe(0);
    const inDay = rowsOf<{ n: number }>(
      await server.ctx.db.execute(
        sql`select count(*)::int as n from ${sql.identifier(dayPartitionName(dayStartOf(Date.now() - 3_600_000)))}`,
      ),
    );
    expect(inDay[0].n).toBeGreaterThan(0);
    const refused = rowsOf<{ n: number }>(
      await server.ctx.db.execute(sql`select coalesce(sum(count), 0)::int as n from device_ingest_stats where reason = 'unstorable'`),
    );
    expect(refused[0].n).toBe(0);
  });
});
