import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import { rowsOf, type Database } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { LastSeenWrites } from './last-seen-writes.js';
import { type TTelemetryRowIn, writeIngestBatch } from './write.js';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0); // a whole hour
const pt = (deviceId: number, key: string, ts: number, v1: number | null, more: Partial<TTelemetryRowIn> = {}): TTelemetryRowIn => ({
  deviceId,
  key,
  ts,
  svcRecvTs: ts + 50,
  v1,
  v2: null,
  v3: null,
  ...more,
});
const empty = { telemetry: [], status: [], rejected: [] };
/** A numeric column as a number (rollup sums are `numeric`, which the drivers answer as strings). */
const num = (v: unknown): number | null => (v === null ? null : Number(v));

describe(`writeIngestBatch (${TEST_DB_KIND})`, () => {
  let database: Database;
  let dev: number;
  let dev2: number;
  let dev3: number;
  const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));
  const rollup = (bucketMs: number, key: string, deviceId = dev) =>
    q<Record<string, number>>(
      sql`select * from telemetry_rollup where device_id = ${deviceId} and key = ${key} and bucket_ms = ${bucketMs} order by bucket_ts`,
    );

  beforeAll(async () => {
    database = await openTestDatabase();
    await runMigrations(database);
    const p = await buildDeviceProject(database.db, { count: 3 });
    [dev, dev2, dev3] = p.devices.map((d) => d.id);
  });
  afterAll(() => database.close());

  it('stores a resent point once and counts it once in the rollup', async () => {
    const first = await writeIngestBatch(database.db, { ...empty, telemetry: [pt(dev, 'resend', T0, 1), pt(dev, 'resend', T0 + 1000, 2)] });
    expect(first).toEqual({ inserted: 2, duplicates: 0 });
    const again = await writeIngestBatch(database.db, {
      ...empty,
      telemetry: [pt(dev, 'resend', T0 + 1000, 2), pt(dev, 'resend', T0 + 1000, 2), pt(dev, 'resend', T0 + 2000, 3)],
    });
    expect(again).toEqual({ inserted: 1, duplicates: 2 });
    const raw = await q<{ n: number }>(
      sql`select count(*)::int as n from telemetry join telemetry_keys k on k.id = key_id where device_id = ${dev} and k.key = 'resend'`,
    );
    expect(raw[0].n).toBe(3);
    const [m] = await rollup(60_000, 'resend');
    expect(Number(m.count)).toBe(3);
    expect(num(m.v1_sum)).toBe(6);
  });

  it('keeps latest = the newest ts when points arrive out of order', async () => {
    await writeIngestBatch(database.db, { ...empty, telemetry: [pt(dev, 'ooo', T0 + 5000, 50)] });
    await writeIngestBatch(database.db, { ...empty, telemetry: [pt(dev, 'ooo', T0 + 1000, 10), pt(dev, 'ooo', T0 + 3000, 30)] });
    const [latest] = await q<{ ts: number; v1: number }>(sql`select ts, v1 from telemetry_latest where device_id = ${dev} and key = 'ooo'`);
    expect(Number(latest.ts)).toBe(T0 + 5000);
    expect(latest.v1).toBe(50);
    // the early points still reach the rollup, and first/last follow ts, not arrival order
    const [m] = await rollup(60_000, 'ooo');
    expect([Number(m.first_ts), m.first_v1, Number(m.last_ts), m.last_v1]).toEqual([T0 + 1000, 10, T0 + 5000, 50]);
  });

  it('rolls up min/max/sum/count/first/last per 1-min and 1-h bucket as computed by hand', async () => {
    // minute 0: 4, 8, 6 (v2: 1, 3, null); minute 1: -2, 10; minute 61 (next hour): 7 — sent in two batches, shuffled
    const pts = [
      pt(dev, 'hand', T0 + 40_000, 6, { v2: null }),
      pt(dev, 'hand', T0 + 10_000, 4, { v2: 1 }),
      pt(dev, 'hand', T0 + 20_000, 8, { v2: 3 }),
      pt(dev, 'hand', T0 + 61_000, -2),
      pt(dev, 'hand', T0 + 3_660_000, 7),
      pt(dev, 'hand', T0 + 119_000, 10),
    ];
    await writeIngestBatch(database.db, { ...empty, telemetry: pts.slice(0, 3) });
    await writeIngestBatch(database.db, { ...empty, telemetry: pts.slice(3) });
    const minutes = await rollup(60_000, 'hand');
    expect(
      minutes.map((r) => [
        Number(r.bucket_ts),
        Number(r.count),
        r.v1_min,
        r.v1_max,
        num(r.v1_sum),
        r.v2_min,
        r.v2_max,
        num(r.v2_sum),
        num(r.v3_sum),
      ]),
    ).toEqual([
      [T0, 3, 4, 8, 18, 1, 3, 4, null],
      [T0 + 60_000, 2, -2, 10, 8, null, null, null, null],
      [T0 + 3_660_000, 1, 7, 7, 7, null, null, null, null],
    ]);
    const hours = await rollup(3_600_000, 'hand');
    expect(
      hours.map((r) => [
        Number(r.bucket_ts),
        Number(r.count),
        r.v1_min,
        r.v1_max,
        num(r.v1_sum),
        Number(r.first_ts),
        r.first_v1,
        Number(r.last_ts),
        r.last_v1,
      ]),
    ).toEqual([
      [T0, 5, -2, 10, 26, T0 + 10_000, 4, T0 + 119_000, 10],
      [T0 + 3_600_000, 1, 7, 7, 7, T0 + 3_660_000, 7, T0 + 3_660_000, 7],
    ]);
    expect(Number(hours[0].v1_sum) / Number(hours[0].count)).toBeCloseTo(26 / 5); // avg = sum / count
  });

  it('adds up values near the largest double without overflowing, within a batch and across batches', async () => {
    const huge = 1.7e308;
    await writeIngestBatch(database.db, {
      ...empty,
      telemetry: [
        pt(dev, 'huge', T0, huge, { v2: -huge }),
        pt(dev, 'huge', T0 + 1000, huge, { v2: -huge }),
        pt(dev, 'huge', T0 + 2000, 0.5),
      ],
    });
    await writeIngestBatch(database.db, { ...empty, telemetry: [pt(dev, 'huge', T0 + 3000, Number.MAX_VALUE, { v2: -Number.MAX_VALUE })] });
    const [m] = await rollup(60_000, 'huge');
    expect(Number(m.count)).toBe(4);
    expect([m.v1_max, m.v2_min]).toEqual([Number.MAX_VALUE, -Number.MAX_VALUE]);
    // exact: 2 × 1.7e308 + 0.5 + MAX, far beyond a double
    expect(String(m.v1_sum)).toMatch(/^51976931348623157\d{292}\.5$/);
    expect(Number(m.v2_sum)).toBe(-Infinity);
    expect(num(m.v3_sum)).toBeNull();
  });

  it('keeps rollups equal to the raw rows and latest at the newest ts under concurrent overlapping batches', async () => {
    // 6 batches over 2 devices × 2 keys, 3 minutes; every other batch resends half of its neighbour's points
    const point = (i: number) =>
      pt(i % 2 ? dev : dev3, i % 3 ? 'cc' : 'cd', T0 + 7_200_000 + i * 900, (i * 37) % 23, { v2: i % 5 ? i : null });
    const batches = Array.from({ length: 6 }, (_, b) => {
      const own = Array.from({ length: 40 }, (_, j) => point(b * 40 + j));
      const resent = b % 2 ? Array.from({ length: 20 }, (_, j) => point((b - 1) * 40 + j * 2)) : [];
      return { ...empty, telemetry: [...own, ...resent].reverse() };
    });
    const results = await Promise.all(batches.map((b) => writeIngestBatch(database.db, b)));
    expect(results.reduce((n, r) => n + r.inserted, 0)).toBe(240);
    for (const bucketMs of [60_000, 3_600_000]) {
      const mismatches = await q(sql`
        with raw as (
          select device_id, key, (ts / ${bucketMs}::bigint) * ${bucketMs}::bigint as bucket_ts, count(*)::int as count,
            sum(v1) as v1_sum, min(v1) as v1_min, max(v1) as v1_max, sum(v2) as v2_sum, min(ts) as first_ts, max(ts) as last_ts
          from telemetry join telemetry_keys k on k.id = key_id where key in ('cc', 'cd') group by 1, 2, 3)
        select * from raw full join (select * from telemetry_rollup where key in ('cc', 'cd') and bucket_ms = ${bucketMs}) r
          using (device_id, key, bucket_ts)
        where raw.count is distinct from r.count or raw.v1_sum is distinct from r.v1_sum or raw.v1_min is distinct from r.v1_min
          or raw.v1_max is distinct from r.v1_max or raw.v2_sum is distinct from r.v2_sum
          or raw.first_ts is distinct from r.first_ts or raw.last_ts is distinct from r.last_ts`);
      expect(mismatches).toEqual([]);
    }
    const stale = await q(sql`
      select l.device_id from telemetry_latest l
      join (select device_id, key, max(ts) as ts from telemetry join telemetry_keys k on k.id = key_id where key in ('cc', 'cd') group by 1, 2) m using (device_id, key)
      where l.ts <> m.ts`);
    expect(stale).toEqual([]);
  });

  it('stores status words, keeps the newest on the device and moves last_seen_at forward only', async () => {
    await writeIngestBatch(database.db, {
      ...empty,
      status: [
        { deviceId: dev2, ts: T0 + 2000, svcRecvTs: T0 + 2100, value: 5 },
        { deviceId: dev2, ts: T0 + 1000, svcRecvTs: T0 + 2100, value: 3 },
      ],
    });
    await writeIngestBatch(database.db, { ...empty, status: [{ deviceId: dev2, ts: T0 + 500, svcRecvTs: T0 + 900, value: 9 }] });
    const [d] = await q<{ status_value: number; status_ts: number; last_seen_at: number }>(
      sql`select status_value, status_ts, last_seen_at from devices where id = ${dev2}`,
    );
    expect([Number(d.status_value), Number(d.status_ts), Number(d.last_seen_at)]).toEqual([5, T0 + 2000, T0 + 2100]);
    const words = await q<{ n: number }>(sql`select count(*)::int as n from device_status where device_id = ${dev2}`);
    expect(words[0].n).toBe(3);
  });

  it('adds up rejected counters per device and reason', async () => {
    const rejected = [
      { deviceId: dev2, reason: 'malformed' as const, count: 2 },
      { deviceId: dev2, reason: 'malformed' as const, count: 1 },
      { deviceId: dev2, reason: 'unknown_key' as const, count: 4 },
    ];
    await writeIngestBatch(database.db, { ...empty, rejected });
    await writeIngestBatch(database.db, { ...empty, rejected: rejected.slice(0, 1) });
    const stats = await q<{ reason: string; count: number }>(
      sql`select reason, count from device_ingest_stats where device_id = ${dev2} order by reason`,
    );
    expect(stats.map((s) => [s.reason, Number(s.count)])).toEqual([
      ['malformed', 5],
      ['unknown_key', 4],
    ]);
  });

  it('stores nothing of a batch whose last statement fails', async () => {
    const before = await q<{ n: number }>(
      sql`select (select count(*) from telemetry) + (select count(*) from telemetry_rollup) + (select count(*) from device_status) as n`,
    );
    const bad = {
      telemetry: [pt(dev, 'atomic', T0, 1)],
      status: [{ deviceId: dev, ts: T0 + 7, svcRecvTs: T0 + 8, value: 1 }],
      rejected: [{ deviceId: 2 ** 40, reason: 'malformed' as const, count: 1 }], // out of int range: the last insert fails
    };
    await expect(writeIngestBatch(database.db, bad)).rejects.toThrow();
    const after = await q<{ n: number }>(
      sql`select (select count(*) from telemetry) + (select count(*) from telemetry_rollup) + (select count(*) from device_status) as n`,
    );
    expect(Number(after[0].n)).toBe(Number(before[0].n));
    const latest = await q<{ n: number }>(sql`select count(*)::int as n from telemetry_latest where key = 'atomic'`);
    expect(latest[0].n).toBe(0);
  });

  it("writes a device's heard-from time once a second at most, a status word at once", async () => {
    const { devices } = await buildDeviceProject(database.db, { count: 1 });
    const id = devices[0].id;
    const lastSeen = new LastSeenWrites(1_000);
    const seen = async () => {
      const [d] = await q<{ last_seen_at: number; first_seen_at: number; status_value: number | null }>(
        sql`select last_seen_at, first_seen_at, status_value from devices where id = ${id}`,
      );
      return [Number(d.first_seen_at), Number(d.last_seen_at), d.status_value === null ? null : Number(d.status_value)];
    };
    const at = (recvMs: number) => ({ ...empty, telemetry: [pt(id, 'seen', recvMs - 50, 1)] });
    await writeIngestBatch(database.db, at(T0), { lastSeen });
    expect(await seen()).toEqual([T0, T0, null]);
    // 900 ms later: the row is left alone
    await writeIngestBatch(database.db, at(T0 + 900), { lastSeen });
    expect(await seen()).toEqual([T0, T0, null]);
    // a status word is written at once, with the heard-from time of its batch
    await writeIngestBatch(
      database.db,
      { ...empty, status: [{ deviceId: id, ts: T0 + 950, svcRecvTs: T0 + 950, value: 4 }] },
      { lastSeen },
    );
    expect(await seen()).toEqual([T0, T0 + 950, 4]);
    // a second past the last written time: written again
    await writeIngestBatch(database.db, at(T0 + 1_949), { lastSeen });
    expect((await seen())[1]).toBe(T0 + 950);
    await writeIngestBatch(database.db, at(T0 + 1_950), { lastSeen });
    expect((await seen())[1]).toBe(T0 + 1_950);
    // a batch that fails commits nothing, so the next one writes the row
    const failing = {
      ...at(T0 + 2_950),
      rejected: [{ deviceId: 2 ** 40, reason: 'malformed' as const, count: 1 }], // out of int range: the statement fails
    };
    await expect(writeIngestBatch(database.db, failing, { lastSeen })).rejects.toThrow();
    // (had it counted, 3,000 would be within a second of it)
    await writeIngestBatch(database.db, at(T0 + 3_000), { lastSeen });
    expect((await seen())[1]).toBe(T0 + 3_000);
  });
});
