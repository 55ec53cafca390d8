import { DAY_MS } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { openTestDatabase, TEST_DB_KIND } from '../../../test/helpers.js';
import { rowsOf, type Database } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { projectRetention } from '../../db/schema.js';
import { type TTelemetryRowIn, writeIngestBatch } from '../telemetry/write.js';
import { firstKeptDay } from './retention.js';
import { runTelemetryStorage } from './storage-job.js';

const D0 = Date.UTC(2025, 0, 1);
const DAYS = 12;
const DEVICES = 2;
/** Series per project: devices × 2 keys. */
const SERIES = DEVICES * 2;
/** The job runs at noon two days after the last day of points: every day of points is cold (hot window: a day). */
const NOW = D0 + (DAYS + 1) * DAY_MS + DAY_MS / 2;
const settings = { hotWindowMs: DAY_MS };

describe(`telemetry retention per project (${TEST_DB_KIND})`, () => {
  let database: Database;
  let kept: TBuiltProject;
  let expiring: TBuiltProject;
  const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));
  const n = async (query: ReturnType<typeof sql>) => Number((await q<{ n: number }>(query))[0].n);
  const inProject = (p: TBuiltProject) => sql`(select id from devices where project_id = ${p.projectId})`;

  /** Points every 20 minutes of every day, two keys per device. */
  const writeDays = async (p: TBuiltProject) => {
    for (let d = 0; d < DAYS; d += 1) {
      const rows: TTelemetryRowIn[] = [];
      for (const device of p.devices)
        for (const key of ['temperature', 'humidity'])
          for (let m = 0; m < 24 * 60; m += 20) {
            const ts = D0 + d * DAY_MS + m * 60_000;
            rows.push({ deviceId: device.id, key, ts, svcRecvTs: ts + 50, v1: m, v2: null, v3: null });
          }
      await writeIngestBatch(database.db, { telemetry: rows, status: [], rejected: [] });
    }
  };

  beforeAll(async () => {
    database = await openTestDatabase();
    await runMigrations(database);
    kept = await buildDeviceProject(database.db, { count: DEVICES });
    expiring = await buildDeviceProject(database.db, { count: DEVICES });
    await writeDays(kept);
    await writeDays(expiring);
  }, 300_000);
  afterAll(() => database.close());

  it('keeps everything by default; the job compresses the cold days and keeps their sizes per project and day', async () => {
    const run = await runTelemetryStorage(database, settings, NOW);
    expect(run.skipped).toBe(false);
    expect(await n(sql`select count(*)::int as n from telemetry_chunk`)).toBe(2 * SERIES * DAYS);
    const usage = await q<{ points: number; days: number }>(
      sql`select sum(points)::int as points, count(*)::int as days from telemetry_usage_daily where project_id = ${kept.projectId}`,
    );
    expect(usage[0]).toEqual({ points: SERIES * 72 * DAYS, days: DAYS });
    // Nothing expires without a retention.
    expect(await runTelemetryStorage(database, settings, NOW + 3_650 * DAY_MS)).toMatchObject({ expired: { chunks: 0, rollupRows: 0 } });
  });

  it('expires whole days of chunks and rollup ranges; a run that fails part way is finished by the next, each row counted once', async () => {
    await database.db.insert(projectRetention).values({ projectId: expiring.projectId, rawDays: 7, rollup1mDays: 10, rollup1hDays: null });
    const rawFrom = firstKeptDay(NOW, 7);
    const minuteFrom = firstKeptDay(NOW, 10);
    const expiredPoints = SERIES * 72 * ((rawFrom - D0) / DAY_MS);
    const expiredMinutes = await n(
      sql`select count(*)::int as n from telemetry_rollup where device_id in ${inProject(expiring)} and bucket_ms = 60000 and bucket_ts < ${minuteFrom}`,
    );
    const keptBefore = await n(sql`select count(*)::int as n from telemetry_rollup where device_id in ${inProject(kept)}`);
    expect(expiredMinutes).toBeGreaterThan(0);

    // The first run dies inside its third rollup batch (after the chunks went): that batch rolls back.
    let batches = 0;
    await expect(
      runTelemetryStorage(database, settings, NOW, {
        onExpiryBatch: ({ kind }) => {
          if (kind === 'rollup' && ++batches === 3) throw new Error('killed part way');
        },
      }),
    ).rejects.toThrow('killed part way');
    const partial = await q<{ raw: number; rollups: number }>(
      sql`select raw_points_removed_total::int as raw, rollup_rows_removed_total::int as rollups from project_storage_expiry where project_id = ${expiring.projectId}`,
    );
    expect(partial[0].raw).toBe(expiredPoints);
    expect(partial[0].rollups).toBeGreaterThan(0);
    expect(partial[0].rollups).toBeLessThan(expiredMinutes);

    const second = await runTelemetryStorage(database, settings, NOW);
    expect(second).toMatchObject({ skipped: false, expired: { chunks: 0 } });
    const totals = await q<{ raw: number; rollups: number; last_raw: number; last_rollups: number }>(
      sql`select raw_points_removed_total::int as raw, rollup_rows_removed_total::int as rollups,
        raw_points_removed::int as last_raw, rollup_rows_removed::int as last_rollups
        from project_storage_expiry where project_id = ${expiring.projectId}`,
    );
    expect(totals[0]).toEqual({
      raw: expiredPoints,
      rollups: expiredMinutes,
      last_raw: 0,
      last_rollups: expiredMinutes - partial[0].rollups,
    });

    // What is left: the days kept, every minute bucket kept, every hour bucket (kept for ever), the other project whole.
    expect(
      await n(sql`select count(*)::int as n from telemetry_chunk where device_id in ${inProject(expiring)} and day_start < ${rawFrom}`),
    ).toBe(0);
    expect(await n(sql`select count(*)::int as n from telemetry_chunk where device_id in ${inProject(expiring)}`)).toBe(
      SERIES * ((D0 + DAYS * DAY_MS - rawFrom) / DAY_MS),
    );
    expect(
      await n(sql`select count(*)::int as n from telemetry_rollup where device_id in ${inProject(expiring)} and bucket_ms = 60000
        and bucket_ts < ${minuteFrom}`),
    ).toBe(0);
    expect(
      await n(sql`select count(*)::int as n from telemetry_rollup where device_id in ${inProject(expiring)} and bucket_ms = 3600000`),
    ).toBe(SERIES * 24 * DAYS);
    expect(await n(sql`select count(*)::int as n from telemetry_rollup where device_id in ${inProject(kept)}`)).toBe(keptBefore);
    const points = await n(
      sql`select count(*)::int as n from telemetry_points(${expiring.devices[0].id}, 'temperature', ${D0}, ${D0 + DAYS * DAY_MS})`,
    );
    expect(points).toBe(72 * ((D0 + DAYS * DAY_MS - rawFrom) / DAY_MS));

    const runs = await q<{ error: string | null; finished: boolean }>(
      sql`select error, finished_at is not null as finished from telemetry_storage_runs order by id desc limit 2`,
    );
    expect(runs).toEqual([
      { error: null, finished: true },
      { error: 'killed part way', finished: false },
    ]);
  });
});
