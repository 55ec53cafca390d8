import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { rowsOf, type Database, type Db } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import * as schema from '../../db/schema.js';
import { keyIdsOf } from './key-ids.js';
import { type TTelemetryRowIn, writeIngestBatch } from './write.js';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const pt = (deviceId: number, key: string, ts: number, v1: number): TTelemetryRowIn => ({
  deviceId,
  key,
  ts,
  svcRecvTs: ts + 50,
  v1,
  v2: null,
  v3: null,
});
const batchOf = (telemetry: TTelemetryRowIn[]) => ({ telemetry, status: [], rejected: [] });

describe(`telemetry key ids (${TEST_DB_KIND})`, () => {
  let database: Database;
  /** A second writer on the same database, as another replica is: its own handle (and so its own cache of ids). */
  let other: Db;
  let devices: number[];
  const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));
  const points = (deviceId: number, key: string) =>
    q<{ ts: number; v1: number }>(
      sql`select ts, v1 from telemetry_points(${deviceId}, ${key}, ${T0 - 3_600_000}, ${T0 + 3_600_000}) order by ts`,
    );
  const keysNamed = (prefix: string) =>
    q<{ id: number; key: string }>(sql`select id, key from telemetry_keys where key like ${`${prefix}%`} order by key`);
  /** A new handle on the database: a writer with nothing cached, as a replica that just started. */
  const freshHandle = (): Db =>
    (database.pglite
      ? drizzlePglite(database.pglite, { schema })
      : drizzlePg(database.pool as NonNullable<Database['pool']>, { schema })) as unknown as Db;
  const lastId = async () => Number((await q<{ last_value: number }>(sql`select last_value from telemetry_keys_id_seq`))[0].last_value);

  beforeAll(async () => {
    database = await openTestDatabase();
    await runMigrations(database);
    devices = (await buildDeviceProject(database.db, { count: 4 })).devices.map((d) => d.id);
    other = database.ingestDb ?? freshHandle();
  });
  afterAll(() => database.close());

  it('gives two writers adding the same new keys at once the same ids, each key stored once', async () => {
    const keys = Array.from({ length: 12 }, (_, i) => `race-${String(i).padStart(2, '0')}`);
    // each writer sends every key, from devices of its own, several batches at once
    const writes = [database.db, other].flatMap((db, w) =>
      [0, 1, 2].map((b) =>
        writeIngestBatch(db, batchOf(keys.map((key, i) => pt(devices[w * 2 + (b % 2)], key, T0 + b * 1000 + i, w * 100 + b)))),
      ),
    );
    const results = await Promise.all(writes);
    expect(results.reduce((n, r) => n + r.inserted, 0)).toBe(6 * keys.length);
    const stored = await keysNamed('race-');
    expect(stored.map((k) => k.key)).toEqual(keys);
    // both handles resolve every key to the one committed id
    const [a, b] = await Promise.all([keyIdsOf(database.db, keys), keyIdsOf(other, keys)]);
    for (const k of stored) {
      expect(a.get(k.key)).toBe(Number(k.id));
      expect(b.get(k.key)).toBe(Number(k.id));
    }
    // every point reads back under its key, from either writer
    for (const key of keys) {
      const all = (await Promise.all(devices.map((d) => points(d, key)))).flat();
      expect(all).toHaveLength(6);
    }
    const rollup = await q<{ n: number }>(
      sql`select sum(count)::int as n from telemetry_rollup where key like 'race-%' and bucket_ms = 60000`,
    );
    expect(rollup[0].n).toBe(6 * keys.length);
  });

  it('stores a batch whose new key first appears between points of known keys, in its rollups and latest by name', async () => {
    const [d0, d1] = devices;
    await writeIngestBatch(database.db, batchOf([pt(d0, 'mid-known', T0, 1)]));
    const idsBefore = await lastId();
    const batch = [
      pt(d0, 'mid-known', T0 + 1000, 2),
      pt(d1, 'mid-known', T0 + 1000, 3),
      pt(d0, 'mid-new', T0 + 1500, 40),
      pt(d1, 'mid-new', T0 + 1600, 41),
      pt(d0, 'mid-known', T0 + 2000, 5),
      pt(d0, 'mid-new', T0 + 2500, 42),
    ];
    expect(await writeIngestBatch(database.db, batchOf(batch))).toEqual({ inserted: 6, duplicates: 0 });
    expect(await lastId()).toBe(idsBefore + 1);
    expect(await points(d0, 'mid-known')).toEqual([
      { ts: T0, v1: 1 },
      { ts: T0 + 1000, v1: 2 },
      { ts: T0 + 2000, v1: 5 },
    ]);
    expect(await points(d0, 'mid-new')).toEqual([
      { ts: T0 + 1500, v1: 40 },
      { ts: T0 + 2500, v1: 42 },
    ]);
    expect(await points(d1, 'mid-new')).toEqual([{ ts: T0 + 1600, v1: 41 }]);
    const latest = await q<{ device_id: number; key: string; ts: number; v1: number }>(
      sql`select device_id, key, ts, v1 from telemetry_latest where key like 'mid-%' order by device_id, key`,
    );
    expect(latest.map((r) => [r.device_id, r.key, Number(r.ts), r.v1])).toEqual([
      [d0, 'mid-known', T0 + 2000, 5],
      [d0, 'mid-new', T0 + 2500, 42],
      [d1, 'mid-known', T0 + 1000, 3],
      [d1, 'mid-new', T0 + 1600, 41],
    ]);
    const rollups = await q<{ key: string; n: number; s: number }>(
      sql`select key, sum(count)::int as n, sum(v1_sum)::float8 as s from telemetry_rollup
        where key like 'mid-%' and bucket_ms = 3600000 group by key order by key`,
    );
    expect(rollups).toEqual([
      { key: 'mid-known', n: 4, s: 11 },
      { key: 'mid-new', n: 3, s: 123 },
    ]);
  });

  it('spends no id on a key the table already holds when a writer first sees it (a restarted replica)', async () => {
    await writeIngestBatch(database.db, batchOf([pt(devices[0], 'restart-key', T0, 1)]));
    const before = await lastId();
    const ids = await keyIdsOf(freshHandle(), ['restart-key']);
    expect(ids.get('restart-key')).toBe(Number((await keysNamed('restart-key'))[0].id));
    expect(await lastId()).toBe(before);
  });
});
