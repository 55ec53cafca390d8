import { DAY_MS } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmptyTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import { rowsOf, type Database } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { listPartitions } from './partitions.js';
import { migrateBeforePartitions } from './migration-fixture.js';
import { runTelemetryStorage } from './storage-job.js';

describe(`partitioning raw telemetry stored before partitions (${TEST_DB_KIND})`, () => {
  let database: Database;
  const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));
  const all = () => q<Record<string, number>>(sql`select * from telemetry order by device_id, key, ts`);
  beforeAll(async () => {
    database = await openEmptyTestDatabase();
    await migrateBeforePartitions(database);
  });
  afterAll(() => database.close());

  it('keeps every row, readable through telemetry_points, and compresses them once their days are cold', async () => {
    // Raw telemetry has no foreign key to devices, and the tables of a device (projects, sensors) have gained columns
    // since 0018 that the factories write: the rows belong to a device id no other row uses.
    const device = { id: 424_242 };
    const start = Date.UTC(2026, 1, 1);
    await database.db.execute(sql`insert into telemetry (device_id, key, ts, svc_recv_ts, v1, v2, v3)
      select ${device.id}, 'k' || (i % 3), ${start}::bigint + i * 37000, ${start}::bigint + i * 37000 + 80, i * 0.5, case when i % 2 = 0 then -i end, null
      from generate_series(0, 4999) as i`);
    const before = await all();
    expect(before).toHaveLength(5000);

    await runMigrations(database);
    expect(await all()).toEqual(before);
    const parts = await listPartitions(database.db, 'telemetry');
    expect(parts.map((p) => p.name)).toEqual(['telemetry_before_partitions', 'telemetry_default']);
    expect(parts[0].fromTs).toBeNull();

    const read = () => q(sql`select * from telemetry_points(${device.id}, 'k1', ${start}, ${start + 3 * DAY_MS}) order by ts`);
    const readBefore = await read();
    expect(readBefore.length).toBeGreaterThan(1000);
    // a clock well past every stored day: the whole old table is cold
    const run = await runTelemetryStorage(database, { hotWindowMs: DAY_MS }, Date.now() + 3 * DAY_MS);
    expect(run.skipped === false && run.detached).toEqual(['telemetry_before_partitions']);
    expect((await listPartitions(database.db, 'telemetry')).map((p) => p.name)).not.toContain('telemetry_before_partitions');
    expect(await q(sql`select count(*)::int as n from telemetry_cold_pending`)).toEqual([{ n: 0 }]);
    expect(await read()).toEqual(readBefore);
  });
});
