import { DAY_MS } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmptyTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import { rowsOf, type Database } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { writeIngestBatch } from '../telemetry/write.js';
import { listPartitions } from './partitions.js';
import { KEY_IDS_MIGRATION, migrateBefore, migrateBeforePartitions } from './migration-fixture.js';
import { runTelemetryStorage } from './storage-job.js';

// Raw telemetry has no foreign key to devices, and the tables of a device (projects, sensors) have gained columns
// since these migrations that the factories write: the rows belong to a device id no other row uses.
const DEVICE = 424_242;

describe(`partitioning raw telemetry stored before partitions (${TEST_DB_KIND})`, () => {
  let database: Database;
  const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));
  beforeAll(async () => {
    database = await openEmptyTestDatabase();
    await migrateBeforePartitions(database);
  });
  afterAll(() => database.close());

  it('keeps every row, readable through telemetry_points, and compresses them once their days are cold', async () => {
    const start = Date.UTC(2026, 1, 1);
    await database.db.execute(sql`insert into telemetry (device_id, key, ts, svc_recv_ts, v1, v2, v3)
      select ${DEVICE}, 'k' || (i % 3), ${start}::bigint + i * 37000, ${start}::bigint + i * 37000 + 80, i * 0.5, case when i % 2 = 0 then -i end, null
      from generate_series(0, 4999) as i`);
    const before = await q(sql`select * from telemetry order by device_id, key, ts`);
    expect(before).toHaveLength(5000);

    await runMigrations(database);
    // 0019 attached the old table as a partition; 0032 kept that layout's tables under telemetry_text_keys
    expect(await q(sql`select * from telemetry_text_keys order by device_id, key, ts`)).toEqual(before);
    const parts = await listPartitions(database.db, 'telemetry_text_keys');
    expect(parts.map((p) => p.name)).toEqual(['telemetry_before_partitions', 'telemetry_text_keys_default']);
    expect(parts[0].fromTs).toBeNull();

    const read = () => q(sql`select * from telemetry_points(${DEVICE}, 'k1', ${start}, ${start + 3 * DAY_MS}) order by ts`);
    const readBefore = await read();
    expect(readBefore.length).toBeGreaterThan(1000);
    // a clock well past every stored day: the whole old table is cold
    const run = await runTelemetryStorage(database, { hotWindowMs: DAY_MS }, Date.now() + 3 * DAY_MS);
    expect(run.skipped === false && run.points).toBe(5000);
    expect((await listPartitions(database.db, 'telemetry_text_keys')).map((p) => p.name)).toEqual(['telemetry_text_keys_default']);
    expect(await q(sql`select count(*)::int as n from telemetry_text_keys`)).toEqual([{ n: 0 }]);
    expect(await read()).toEqual(readBefore);
  });
});

describe(`moving raw telemetry stored with text keys to key ids (${TEST_DB_KIND})`, () => {
  let database: Database;
  const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));
  beforeAll(async () => {
    database = await openEmptyTestDatabase();
    await migrateBefore(database, KEY_IDS_MIGRATION);
  });
  afterAll(() => database.close());

  it('keeps every row readable, counts a point resent after it once, and compresses the old rows once cold', async () => {
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const start = today - 3 * DAY_MS;
    // yesterday and today in day partitions (hot), three days before in the default partition, one waiting for
    // compression: every place the earlier layout kept raw points
    for (const day of [today - DAY_MS, today]) {
      const name = sql.identifier(`telemetry_${new Date(day).toISOString().slice(0, 10).replaceAll('-', '')}`);
      await database.db.execute(
        sql`create table ${name} partition of telemetry for values from (${sql.raw(String(day))}) to (${sql.raw(String(day + DAY_MS))})`,
      );
    }
    const pendingDay = start - DAY_MS;
    const pending = sql.identifier(`telemetry_${new Date(pendingDay).toISOString().slice(0, 10).replaceAll('-', '')}`);
    await database.db.execute(sql`create table ${pending} partition of telemetry_cold_pending
      for values from (${sql.raw(String(pendingDay))}) to (${sql.raw(String(pendingDay + DAY_MS))})`);
    const rows = (from: number, n: number, step: number) => sql`select ${DEVICE}, 'k' || (i % 3), ${from}::bigint + i * ${step}::bigint,
      ${from}::bigint + i * ${step}::bigint + 80, i * 0.25, case when i % 2 = 0 then -i end, null from generate_series(0, ${n - 1}) as i`;
    await database.db.execute(sql`insert into telemetry (device_id, key, ts, svc_recv_ts, v1, v2, v3) ${rows(start, 4000, 60_000)}`);
    await database.db.execute(
      sql`insert into telemetry_cold_pending (device_id, key, ts, svc_recv_ts, v1, v2, v3) ${rows(pendingDay, 500, 90_000)}`,
    );
    const read = (key: string) =>
      q<{ ts: number }>(sql`select * from telemetry_points(${DEVICE}, ${key}, ${pendingDay}, ${today + DAY_MS}) order by ts`);
    const before = await Promise.all(['k0', 'k1', 'k2'].map(read));
    expect(before.reduce((n, r) => n + r.length, 0)).toBe(4500);

    await runMigrations(database);
    expect((await listPartitions(database.db, 'telemetry_text_keys')).map((p) => p.name).sort()).toEqual(
      [
        'telemetry_text_keys_default',
        `telemetry_text_keys_${new Date(today - DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`,
        `telemetry_text_keys_${new Date(today).toISOString().slice(0, 10).replaceAll('-', '')}`,
      ].sort(),
    );
    expect(await Promise.all(['k0', 'k1', 'k2'].map(read))).toEqual(before);

    // a point of the old rows resent after the migration, and a new one: the resend is read once
    const old = before[1][before[1].length - 1] as unknown as { ts: number; svc_recv_ts: number; v1: number; v2: number | null };
    const resend = {
      deviceId: DEVICE,
      key: 'k1',
      ts: Number(old.ts),
      svcRecvTs: Number(old.svc_recv_ts),
      v1: old.v1,
      v2: old.v2,
      v3: null,
    };
    const fresh = { ...resend, ts: Number(old.ts) + 1, key: 'k9' };
    expect(await writeIngestBatch(database.db, { telemetry: [resend, fresh], status: [], rejected: [] })).toEqual({
      inserted: 2,
      duplicates: 0,
    });
    expect(await read('k1')).toEqual(before[1]);
    expect(await read('k9')).toHaveLength(1);

    // a clock two days on: every old day is cold, compressed, its partition dropped; every point still reads once
    const run = await runTelemetryStorage(database, { hotWindowMs: DAY_MS }, today + 2 * DAY_MS + 1000);
    expect(run.skipped).toBe(false);
    expect((await listPartitions(database.db, 'telemetry_text_keys')).map((p) => p.name)).toEqual(['telemetry_text_keys_default']);
    expect(await listPartitions(database.db, 'telemetry_text_keys_pending')).toEqual([]);
    expect(
      await q(sql`select ((select count(*) from telemetry_text_keys) + (select count(*) from telemetry_text_keys_pending))::int as n`),
    ).toEqual([{ n: 0 }]);
    expect(await Promise.all(['k0', 'k1', 'k2'].map(read))).toEqual(before);
    expect(await read('k9')).toHaveLength(1);
  });
});
