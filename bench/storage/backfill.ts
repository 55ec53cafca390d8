/**
 * Past days of raw telemetry for the storage benches: each day gets its hot partition the way the storage job makes
 * one (`createDayPartition`) and is filled by one SQL statement per day — devices × keys, a point every `periodS`
 * seconds with 0–19 ms of sampling jitter, received 40–239 ms later, one value. Cold once the hot window has passed,
 * these are what the storage job compresses (and, past a project's retention, expires). Rollups are not written
 * with them (compression and expiry of raw points do not read them); `backfillRollups` derives a day's from its
 * points for the benches that expire rollups.
 */
import { DAY_MS } from '@tessera/contracts';
import type { Database } from '@tessera/server';
import { createDayPartition } from '../../apps/server/src/modules/telemetry-store/partitions.js';

/** The keys the benches write. */
export const BACKFILL_KEYS = ['temperature', 'humidity', 'status', 'vibration'] as const;

/** Midnight UTC of the day `daysAgo` days before today's. */
export function dayStartAgo(daysAgo: number, nowMs = Date.now()): number {
  return nowMs - (nowMs % DAY_MS) - daysAgo * DAY_MS;
}

/** The ids of {@link BACKFILL_KEYS} in `telemetry_keys`, added when missing (PostgreSQL: `database.pool`). */
async function keyIds(database: Database): Promise<number[]> {
  const pool = database.pool!;
  await pool.query('insert into telemetry_keys (key) select unnest($1::text[]) on conflict (key) do nothing', [BACKFILL_KEYS]);
  const { rows } = await pool.query<{ id: number; key: string }>('select id, key from telemetry_keys');
  return BACKFILL_KEYS.map((k) => rows.find((r) => r.key === k)?.id as number);
}

/**
 * Writes day `dayStart` (epoch ms, midnight UTC) of `deviceIds` × 4 keys at one point every `periodS` s into its own
 * new hot partition. Answers the points written.
 * @throws the database error when the day already has a partition.
 */
export async function backfillDay(database: Database, deviceIds: readonly number[], dayStart: number, periodS: number): Promise<number> {
  const ids = await keyIds(database);
  await createDayPartition(database.db, dayStart);
  const { rowCount } = await database.pool!.query(
    `insert into telemetry (ts, svc_recv_ts, v1, device_id, key_id)
     select t.ts, t.ts + 40 + floor(random() * 200)::int, round((20 + 5 * sin(s / 13751.0 + d) + random())::numeric, 2)::float8, d, k
     from generate_series(0, 86399, $2::int) as s, unnest($3::int[]) as d, unnest($4::int[]) as k,
       lateral (select $1::bigint + s * 1000 + floor(random() * 20)::int as ts) as t`,
    [dayStart, periodS, deviceIds, ids],
  );
  return rowCount ?? 0;
}

/**
 * Writes the 1-minute and 1-hour rollup rows of day `dayStart` (epoch ms, midnight UTC) from its raw points in its hot
 * partition (count, v1 min/max/sum, first and last), as ingest would have. Answers the rows written.
 */
export async function backfillRollups(database: Database, dayStart: number): Promise<number> {
  const client = await database.pool!.connect();
  try {
    // one statement per bucket size over a day's millions of rows: longer than the server's statement timeout
    await client.query('set statement_timeout = 0');
    let rows = 0;
    for (const bucketMs of [60_000, 3_600_000]) {
      const { rowCount } = await client.query(
        `insert into telemetry_rollup (device_id, key, bucket_ms, bucket_ts, count, v1_min, v1_max, v1_sum, first_ts, first_v1, last_ts, last_v1)
         select t.device_id, k.key, $2::int, t.ts / $2 * $2, count(*), min(t.v1), max(t.v1), sum(t.v1::numeric),
           min(t.ts), (array_agg(t.v1 order by t.ts))[1], max(t.ts), (array_agg(t.v1 order by t.ts desc))[1]
         from telemetry t join telemetry_keys k on k.id = t.key_id
         where t.ts >= $1::bigint and t.ts < $1::bigint + ${DAY_MS} group by 1, 2, 3, 4`,
        [dayStart, bucketMs],
      );
      rows += rowCount ?? 0;
    }
    return rows;
  } finally {
    await client.query('reset statement_timeout').catch(() => undefined);
    client.release();
  }
}
