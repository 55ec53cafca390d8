import { DAY_MS } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { openTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import { rowsOf, type Database } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { type TTelemetryRowIn, writeIngestBatch } from '../telemetry/write.js';
import { compressColdDays } from './compress.js';
import { Pacer } from './pacing.js';
import { createDayPartition, listPartitions } from './partitions.js';

const D0 = Date.UTC(2026, 2, 1);
const day = (i: number) => D0 + i * DAY_MS;
const KEYS = ['temperature', 'humidity'];
const DEVICES = 3;
/** Points per series and day: every 30 minutes. */
const PER_DAY = 48;

/**
 * One database holding: day 0 already compressed, then resends of half its points and new late points of it (in
 * `telemetry_default`, the resends counted a second time by ingest), and day 1 in its hot partition — what the pass
 * under test compresses: day 1 from its pending partition (read, progress), day 0's late points from the default
 * partition (deleted slice by slice).
 */
async function fixture(): Promise<{ database: Database; devices: number[] }> {
  const database = await openTestDatabase();
  await runMigrations(database);
  const devices = (await buildDeviceProject(database.db, { count: DEVICES })).devices.map((d) => d.id);
  for (let i = 0; i < 3; i += 1) await createDayPartition(database.db, day(i));
  const points = (d: number, from: number, n: number, offsetMs = 0): TTelemetryRowIn[] =>
    devices.flatMap((deviceId, di) =>
      KEYS.flatMap((key, ki) =>
        Array.from({ length: n }, (_, i) => {
          const ts = day(d) + (from + i) * 1_800_000 + offsetMs;
          return { deviceId, key, ts, svcRecvTs: ts + 40 + i, v1: di * 1000 + ki * 100 + i + 0.1, v2: null, v3: null };
        }),
      ),
    );
  const write = (rows: TTelemetryRowIn[]) => writeIngestBatch(database.db, { telemetry: rows, status: [], rejected: [] });
  await write(points(0, 0, PER_DAY));
  await write(points(1, 0, PER_DAY));
  await compressColdDays(database.db, day(1));
  await write(points(0, 0, PER_DAY / 2)); // resent: the chunk holds them
  await write(points(0, 0, 5, 60_000)); // late, new
  return { database, devices };
}

describe(`telemetry compression in slices: stopped or killed part way, finished by the next pass (${TEST_DB_KIND})`, () => {
  let whole: Awaited<ReturnType<typeof fixture>>;
  let killed: Awaited<ReturnType<typeof fixture>>;
  let stopped: Awaited<ReturnType<typeof fixture>>;

  /** Chunks and rollups, device ids as their index in the fixture (each database numbers its own). */
  const snapshot = async ({ database, devices }: Awaited<ReturnType<typeof fixture>>) => {
    const index = (id: number) => devices.indexOf(Number(id));
    const chunks = rowsOf<Record<string, unknown>>(
      await database.db.execute(sql`select device_id, key, day_start, n, ts_first, ts_step, ts_steps, recv_lags, recv_lags_wide, v1
        from telemetry_chunk order by device_id, key, day_start`),
    ).map((r) => ({ ...r, device_id: index(r.device_id as number) }));
    const rollups = rowsOf<Record<string, unknown>>(
      await database.db.execute(sql`select device_id, key, bucket_ms, bucket_ts, count, v1_min, v1_max, v1_sum::text as s1
        from telemetry_rollup order by device_id, key, bucket_ms, bucket_ts`),
    ).map((r) => ({ ...r, device_id: index(r.device_id as number) }));
    return { chunks, rollups };
  };
  const count = async (database: Database, query: ReturnType<typeof sql>) =>
    Number(rowsOf<{ n: number }>(await database.db.execute(query))[0].n);
  /** Every point of every series over days 0 and 1 as the read path answers them. */
  const read = async ({ database, devices }: Awaited<ReturnType<typeof fixture>>) => {
    const out: unknown[] = [];
    for (const d of devices)
      for (const key of KEYS)
        out.push(
          rowsOf(
            await database.db.execute(
              sql`select ts, svc_recv_ts, v1 from telemetry_points(${d}, ${key}, ${day(0)}, ${day(2) - 1}) order by ts`,
            ),
          ),
        );
    return out;
  };

  beforeAll(async () => {
    whole = await fixture();
    killed = await fixture();
    stopped = await fixture();
  }, 120_000);
  afterAll(async () => {
    await Promise.all([whole, killed, stopped].map((f) => f?.database.close()));
  });

  it('gives the same chunks and rollup counts as a pass that was never interrupted, each resent point counted once', async () => {
    const readBefore = await read(whole);
    const done = await compressColdDays(whole.database.db, day(2), { slicePoints: PER_DAY });
    expect(done).toMatchObject({ stopped: false, duplicates: DEVICES * KEYS.length * (PER_DAY / 2) });
    expect(done.slices).toBeGreaterThan(DEVICES * KEYS.length); // a series a slice: day 1's, then day 0's late points
    const expected = await snapshot(whole);
    expect(await read(whole)).toEqual(readBefore);
    // every series of day 0 counts its 48 points and the 5 late ones once in the hour buckets, day 1 its 48
    const hourly = (d: number) =>
      count(
        whole.database,
        sql`select sum(count)::int as n from telemetry_rollup where bucket_ms = 3600000
        and bucket_ts >= ${day(d)} and bucket_ts < ${day(d + 1)}`,
      );
    expect(await hourly(0)).toBe(DEVICES * KEYS.length * (PER_DAY + 5));
    expect(await hourly(1)).toBe(DEVICES * KEYS.length * PER_DAY);

    // killed inside its third slice of day 1 (rolled back); two slices merged and recorded
    const readKilled = await read(killed);
    expect(readKilled).toEqual(readBefore);
    let slices = 0;
    await expect(
      compressColdDays(killed.database.db, day(2), {
        slicePoints: PER_DAY,
        onSlice: () => {
          if (++slices === 3) throw new Error('killed part way');
        },
      }),
    ).rejects.toThrow('killed part way');
    expect(await count(killed.database, sql`select count(*)::int as n from telemetry_compress_progress`)).toBe(1);
    expect((await listPartitions(killed.database.db, 'telemetry_cold_pending')).length).toBe(1);
    // a read in between answers each point once: the pending rows of the merged series are left out
    expect(await read(killed)).toEqual(readBefore);
    await compressColdDays(killed.database.db, day(2), { slicePoints: PER_DAY });
    expect(await snapshot(killed)).toEqual(expected);
    expect(await read(killed)).toEqual(readBefore);
    expect(await count(killed.database, sql`select count(*)::int as n from telemetry_compress_progress`)).toBe(0);
    expect(await listPartitions(killed.database.db, 'telemetry_cold_pending')).toEqual([]);

    // stopped (the server's stop) after its eighth slice: day 1 done and dropped, day 0's late points part way
    const stop = new AbortController();
    let seen = 0;
    const first = await compressColdDays(stopped.database.db, day(2), {
      slicePoints: PER_DAY,
      pacer: new Pacer(50, stop.signal),
      onSlice: () => {
        if (++seen === DEVICES * KEYS.length + 2) stop.abort();
      },
    });
    expect(first).toMatchObject({ stopped: true, slices: DEVICES * KEYS.length + 2 });
    expect(await read(stopped)).toEqual(readBefore);
    const second = await compressColdDays(stopped.database.db, day(2), { slicePoints: PER_DAY });
    expect(second.stopped).toBe(false);
    expect(first.duplicates + second.duplicates).toBe(DEVICES * KEYS.length * (PER_DAY / 2));
    expect(await snapshot(stopped)).toEqual(expected);
    expect(await count(stopped.database, sql`select count(*)::int as n from telemetry_default`)).toBe(0);
  }, 120_000);
});
