import { DAY_MS } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { openTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import { rowsOf, type Database } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { type TTelemetryRowIn, writeIngestBatch } from '../telemetry/write.js';
import { compressColdDays } from './compress.js';
import { createDayPartition, ensureHotPartitions, listPartitions } from './partitions.js';
import { runTelemetryStorage } from './storage-job.js';

const D0 = Date.UTC(2026, 0, 1);
const day = (i: number) => D0 + i * DAY_MS;
/** Days 0..3 are cold, 4 and 5 hot, in the property test. */
const FIRST_HOT = day(4);

interface TRow {
  ts: number;
  svc_recv_ts: number;
  v1: number | null;
  v2: number | null;
  v3: number | null;
}

describe(`telemetry storage: partitions and compression (${TEST_DB_KIND})`, () => {
  let database: Database;
  let devices: number[];
  const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));
  const write = (telemetry: TTelemetryRowIn[]) => writeIngestBatch(database.db, { telemetry, status: [], rejected: [] });
  const points = (deviceId: number, key: string, from: number, to: number) =>
    q<TRow>(sql`select ts, svc_recv_ts, v1, v2, v3 from telemetry_points(${deviceId}, ${key}, ${from}, ${to}) order by ts`).then((rows) =>
      rows.map((r) => ({ ts: Number(r.ts), svc_recv_ts: Number(r.svc_recv_ts), v1: r.v1, v2: r.v2, v3: r.v3 })),
    );
  // Sums as exact numeric text: two doubles near the largest add up beyond float8's range.
  const rollups = (deviceId: number, key: string) =>
    q(sql`select bucket_ms, bucket_ts, count, v1_min, v1_max, v1_sum::text as s1, v2_sum::text as s2, first_ts, last_ts
      from telemetry_rollup where device_id = ${deviceId} and key = ${key} order by bucket_ms, bucket_ts`);

  beforeAll(async () => {
    database = await openTestDatabase();
    await runMigrations(database);
    devices = (await buildDeviceProject(database.db, { count: 2 })).devices.map((d) => d.id);
    for (let i = 0; i < 6; i += 1) await createDayPartition(database.db, day(i));
  });
  afterAll(() => database.close());

  it('stores a point of a day without a partition in the default one, and moves it into the day partition made for it', async () => {
    const early = Date.UTC(2026, 5, 1, 12); // no partition yet
    const r = await write([{ deviceId: devices[0], key: 'early', ts: early, svcRecvTs: early + 5, v1: 1, v2: null, v3: null }]);
    expect(r.inserted).toBe(1);
    expect(
      (
        await q<{ n: number }>(
          sql`select count(*)::int as n from telemetry_default where key_id = (select id from telemetry_keys where key = 'early')`,
        )
      )[0].n,
    ).toBe(1);

    const created = await ensureHotPartitions(database.db, Date.UTC(2026, 4, 30), Date.UTC(2026, 4, 29), 1);
    expect(created).toContain(Date.UTC(2026, 5, 1));
    expect(
      (
        await q<{ n: number }>(
          sql`select count(*)::int as n from telemetry_default where key_id = (select id from telemetry_keys where key = 'early')`,
        )
      )[0].n,
    ).toBe(0);
    expect(
      (
        await q<{ n: number }>(
          sql`select count(*)::int as n from telemetry_20260601 where key_id = (select id from telemetry_keys where key = 'early')`,
        )
      )[0].n,
    ).toBe(1);
    expect(await points(devices[0], 'early', early, early)).toEqual([{ ts: early, svc_recv_ts: early + 5, v1: 1, v2: null, v3: null }]);
    // the same point resent is absorbed by the new partition's primary key
    expect(
      (await write([{ deviceId: devices[0], key: 'early', ts: early, svcRecvTs: early + 9, v1: 1, v2: null, v3: null }])).inserted,
    ).toBe(0);
  });

  it('answers the same rows from hot and compressed days for random points and ranges, and counts a resent point once', async () => {
    const point = fc.record({
      device: fc.constantFrom(0, 1),
      offset: fc.integer({ min: 0, max: 6 * DAY_MS - 1 }),
      lag: fc.oneof(fc.integer({ min: -600_000, max: 5_000 }), fc.constant(40 * DAY_MS)),
      v1: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
      v2: fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: null }),
    });
    const range = fc.tuple(fc.integer({ min: -DAY_MS, max: 7 * DAY_MS }), fc.integer({ min: 0, max: 3 * DAY_MS }));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(point, { minLength: 1, maxLength: 60 }),
        fc.array(range, { minLength: 3, maxLength: 3 }),
        async (pts, ranges) => {
          run += 1;
          const key = `prop${run}`;
          const rows: TTelemetryRowIn[] = pts.map((p) => ({
            deviceId: devices[p.device],
            key,
            ts: D0 + p.offset,
            svcRecvTs: D0 + p.offset + p.lag,
            v1: p.v1,
            v2: p.v2,
            v3: null,
          }));
          await write(rows);
          const series = devices.map((d) => ({ d, ranges: ranges.map(([a, len]) => [D0 + a, D0 + a + len] as const) }));
          const before = await Promise.all(series.flatMap((s) => s.ranges.map(([a, b]) => points(s.d, key, a, b))));
          const rollupsBefore = await Promise.all(devices.map((d) => rollups(d, key)));

          await compressColdDays(database.db, FIRST_HOT);
          const cold = await q<{ n: number }>(
            sql`select count(*)::int as n from telemetry join telemetry_keys k on k.id = key_id where k.key = ${key} and ts < ${FIRST_HOT}`,
          );
          expect(cold[0].n).toBe(0);
          const after = await Promise.all(series.flatMap((s) => s.ranges.map(([a, b]) => points(s.d, key, a, b))));
          expect(after).toEqual(before);

          // every point sent again: none is stored or counted twice, before the merge or after it
          await write(rows);
          expect(await Promise.all(series.flatMap((s) => s.ranges.map(([a, b]) => points(s.d, key, a, b))))).toEqual(before);
          await compressColdDays(database.db, FIRST_HOT);
          expect(await Promise.all(series.flatMap((s) => s.ranges.map(([a, b]) => points(s.d, key, a, b))))).toEqual(before);
          expect(await Promise.all(devices.map((d) => rollups(d, key)))).toEqual(rollupsBefore);
          const left = await q<{ n: number }>(
            sql`select count(*)::int as n from telemetry_default where key_id = (select id from telemetry_keys where key = ${key}) and ts < ${FIRST_HOT}`,
          );
          expect(left[0].n).toBe(0);
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 12) },
    );
    // the cold days' partitions are gone; their points live in chunks
    const hot = (await listPartitions(database.db, 'telemetry')).map((p) => p.name);
    expect(hot).not.toContain('telemetry_20260101');
    expect(hot).toContain('telemetry_20260105');
    expect(
      (await q<{ n: number }>(sql`select count(*)::int as n from telemetry_chunk where day_start < ${FIRST_HOT}`))[0].n,
    ).toBeGreaterThan(0);
  }, 120_000); // twelve runs of writes, compressions and merges: seconds on a loaded machine

  it('loses and doubles nothing written into a day while it is being compressed', async () => {
    const dayStart = day(6);
    await createDayPartition(database.db, dayStart);
    const batch = (from: number, n: number): TTelemetryRowIn[] =>
      Array.from({ length: n }, (_, i) => {
        const ts = dayStart + (from + i) * 1000;
        return { deviceId: devices[i % 2], key: 'race', ts, svcRecvTs: ts + 7, v1: from + i, v2: null, v3: null };
      });
    await write(batch(0, 2000));
    let compressing = true;
    const writer = (async () => {
      // new points and resends of stored ones, batch after batch, until the compression is over (and once after)
      for (let k = 0; compressing || k % 10 !== 0; k += 1) await write([...batch(2000 + k * 50, 50), ...batch(k * 50, 50)]);
    })();
    const compressed = await compressColdDays(database.db, day(7));
    compressing = false;
    await writer;
    expect(compressed.detached).toContain('telemetry_20260107');
    await compressColdDays(database.db, day(7)); // the points that went to the default partition meanwhile

    const written = rowsOf<{ n: number; max: number }>(
      await database.db.execute(
        sql`select count(*)::int as n, max(ts) as max from telemetry_points(${devices[0]}, 'race', ${dayStart}, ${dayStart + DAY_MS - 1})`,
      ),
    );
    const expected = (Number(written[0].max) - dayStart) / 1000 / 2 + 1; // device 0 got every other second from 0
    expect(written[0].n).toBe(expected);
    const counted = await q<{ n: number }>(
      sql`select sum(count)::int as n from telemetry_rollup where device_id = ${devices[0]} and key = 'race' and bucket_ms = 3600000`,
    );
    expect(counted[0].n).toBe(written[0].n);
    expect(
      await q(sql`select count(*)::int as n from telemetry_default where key_id = (select id from telemetry_keys where key = 'race')`),
    ).toEqual([{ n: 0 }]);
  }, 120_000);

  it('runs the job from the clock: partitions ahead, nothing left pending', async () => {
    const run = await runTelemetryStorage(database, { hotWindowMs: DAY_MS }, Date.UTC(2026, 0, 8, 6));
    expect(run.skipped).toBe(false);
    const names = (await listPartitions(database.db, 'telemetry')).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['telemetry_20260108', 'telemetry_20260109', 'telemetry_20260110', 'telemetry_default']));
    expect(names).not.toContain('telemetry_20260105');
    expect(await listPartitions(database.db, 'telemetry_cold_pending')).toEqual([]);
  });
});
