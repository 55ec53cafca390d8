/**
 * Disk used by telemetry, cheap to answer (docs/decisions/telemetry-storage.md "Sizes"): the platform's from the
 * catalog (pg_total_relation_size of every partition and table, reltuples for hot points; telemetry_values, the
 * points of non-numeric keys, counted as hot); a project's from the per-day sums the storage job keeps
 * (telemetry_usage_daily) for compressed days, from its 1-hour rollups' counts for the hot days, and from its rows of
 * telemetry_values, priced at the platform's bytes per hot point, per rollup row and per telemetry_values row.
 */
import type { TStorageUsage } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';

/** Bytes per hot point when the catalog has no estimate yet (compact rows, measured: 91.9). */
export const HOT_POINT_BYTES_FALLBACK = 92;
/** Bytes per non-numeric value row (`telemetry_values`: text key, jsonb value) when the catalog has no estimate yet. */
export const VALUE_POINT_BYTES_FALLBACK = 141;
/** Bytes per rollup row (heap and primary key) when the catalog has no estimate yet. */
export const ROLLUP_ROW_BYTES_FALLBACK = 200;
/** Compressed days the growth per day is averaged over. */
const GROWTH_DAYS = 7;

/**
 * The platform's raw hot tables (hot partitions, the default one, days waiting for compression, and the earlier
 * layout's of both until the storage job has compressed them).
 */
interface THotCatalog {
  bytes: number;
  points: number;
  /** The start of the oldest day not compressed yet (epoch ms), or null when every partition is gone. */
  fromTs: number | null;
}

const num = (v: unknown) => Number(v ?? 0);

/** Bytes and estimated rows of the hot tables, and where they begin. */
async function hotCatalog(db: Db): Promise<THotCatalog> {
  const [r] = rowsOf<{ bytes: number; points: number; from_ts: string | null }>(
    await db.execute(sql`with parts as (
        select relid from pg_partition_tree('telemetry') where isleaf
        union all select relid from pg_partition_tree('telemetry_cold_pending') where isleaf
        union all select relid from pg_partition_tree('telemetry_text_keys') where isleaf
        union all select relid from pg_partition_tree('telemetry_text_keys_pending') where isleaf
      ) select coalesce(sum(pg_total_relation_size(p.relid)), 0)::float8 as bytes,
        coalesce(sum(greatest(c.reltuples, 0)), 0)::float8 as points,
        (select min(substring(pg_get_expr(c2.relpartbound, c2.oid) from 'FROM \\(''?(-?[0-9]+)')::bigint)
          from parts p2 join pg_class c2 on c2.oid = p2.relid) as from_ts
      from parts p join pg_class c on c.oid = p.relid`),
  );
  return { bytes: num(r.bytes), points: num(r.points), fromTs: r.from_ts === null ? null : Number(r.from_ts) };
}

/** Bytes of `table` (heap, indexes, TOAST) and its estimated rows. */
async function tableCatalog(
  db: Db,
  table: 'telemetry_chunk' | 'telemetry_rollup' | 'telemetry_values',
): Promise<{ bytes: number; rows: number }> {
  const [r] = rowsOf<{ bytes: number; rows: number }>(
    await db.execute(sql`select pg_total_relation_size(c.oid)::float8 as bytes, greatest(c.reltuples, 0)::float8 as rows
      from pg_class c where c.oid = ${table}::regclass`),
  );
  return { bytes: num(r.bytes), rows: num(r.rows) };
}

/** Growth per day from the last {@link GROWTH_DAYS} days of `telemetry_usage_daily` (of `projectId`, or all). */
async function growthPerDay(db: Db, rollupRowBytes: number, projectId?: number): Promise<TStorageUsage['growth_per_day']> {
  const scope = projectId === undefined ? sql`true` : sql`project_id = ${projectId}`;
  const [r] = rowsOf<{ days: number; points: number; bytes: number }>(
    await db.execute(sql`with last as (
        select day_start, sum(points) as points, sum(chunk_bytes + (rollup_1m_rows + rollup_1h_rows) * ${rollupRowBytes}) as bytes
        from telemetry_usage_daily where ${scope} group by day_start order by day_start desc limit ${GROWTH_DAYS}
      ) select count(*)::int as days, coalesce(sum(points), 0)::float8 as points, coalesce(sum(bytes), 0)::float8 as bytes from last`),
  );
  if (num(r.days) === 0) return null;
  return { points: Math.round(num(r.points) / num(r.days)), bytes: Math.round(num(r.bytes) / num(r.days)) };
}

/** Assembles a usage from its parts (total, bytes per point). */
function usageOf(
  points: number,
  rawHot: number,
  rawCompressed: number,
  rollups: number,
  growth: TStorageUsage['growth_per_day'],
): TStorageUsage {
  const total = Math.round(rawHot + rawCompressed + rollups);
  return {
    points: Math.round(points),
    bytes: { raw_hot: Math.round(rawHot), raw_compressed: Math.round(rawCompressed), rollups: Math.round(rollups), total },
    bytes_per_point: points > 0 ? Math.round((total / points) * 100) / 100 : null,
    growth_per_day: growth,
  };
}

/** The rollup table's bytes per row (catalog estimate, else the fallback). */
function rollupRowBytesOf(rollup: { bytes: number; rows: number }): number {
  return rollup.rows > 0 ? rollup.bytes / rollup.rows : ROLLUP_ROW_BYTES_FALLBACK;
}

/** The platform's telemetry on disk, measured from the catalog (hot points are the planner's estimate). */
export async function platformStorageUsage(db: Db): Promise<TStorageUsage> {
  const [hot, chunk, rollup, values] = [
    await hotCatalog(db),
    await tableCatalog(db, 'telemetry_chunk'),
    await tableCatalog(db, 'telemetry_rollup'),
    await tableCatalog(db, 'telemetry_values'),
  ];
  const [r] = rowsOf<{ points: number }>(
    await db.execute(sql`select coalesce(sum(points), 0)::float8 as points from telemetry_usage_daily`),
  );
  // Points of non-numeric keys (telemetry_values, never compressed) count as hot raw points.
  return usageOf(
    num(r.points) + hot.points + values.rows,
    hot.bytes + values.bytes,
    chunk.bytes,
    rollup.bytes,
    await growthPerDay(db, rollupRowBytesOf(rollup)),
  );
}

/**
 * Project `projectId`'s telemetry on disk: compressed points and bytes from the job's daily sums; hot points from its
 * 1-hour rollups since the oldest day not compressed yet (the keys its sensors declare and those it took undeclared),
 * priced at the platform's bytes per hot point; rollup rows from the daily sums plus the hot days' buckets, priced at
 * the rollup table's bytes per row; the points of its non-numeric keys (telemetry_values, counted as hot raw points as
 * on the platform's figure) counted by its devices' primary-key ranges and priced at that table's bytes per row.
 */
export async function projectStorageUsage(db: Db, projectId: number): Promise<TStorageUsage> {
  const [hot, rollup, values] = [
    await hotCatalog(db),
    await tableCatalog(db, 'telemetry_rollup'),
    await tableCatalog(db, 'telemetry_values'),
  ];
  const rollupRowBytes = rollupRowBytesOf(rollup);
  const [cold] = rowsOf<{ points: number; bytes: number; rollup_rows: number }>(
    await db.execute(sql`select coalesce(sum(points), 0)::float8 as points, coalesce(sum(chunk_bytes), 0)::float8 as bytes,
      coalesce(sum(rollup_1m_rows + rollup_1h_rows), 0)::float8 as rollup_rows from telemetry_usage_daily where project_id = ${projectId}`),
  );
  const hotFrom = hot.fromTs ?? Number.MAX_SAFE_INTEGER;
  const [h] = rowsOf<{ points: number; minutes: number; hours: number }>(
    await db.execute(sql`select coalesce(sum(r.count), 0)::float8 as points,
        coalesce(sum(least(r.count, 60, (r.last_ts - r.first_ts) / 60000 + 1)), 0)::float8 as minutes, count(r.*)::float8 as hours
      from devices d join (
        select key from project_sensors where project_id = ${projectId}
        union select key from project_undeclared_keys where project_id = ${projectId}
      ) s on true
      join telemetry_rollup r on r.device_id = d.id and r.key = s.key and r.bucket_ms = ${60 * 60_000} and r.bucket_ts >= ${Math.max(0, hotFrom)}
      where d.project_id = ${projectId}`),
  );
  // Non-numeric points are few (states and settings, sent on change: docs/decisions/telemetry.md), so they are
  // counted exactly, each device's from its range of the primary key.
  const [v] = rowsOf<{ points: number }>(
    await db.execute(sql`select count(*)::float8 as points from devices d join telemetry_values v on v.device_id = d.id
      where d.project_id = ${projectId}`),
  );
  const valuePoints = num(v.points);
  const valueBytes = valuePoints * (values.rows > 0 ? values.bytes / values.rows : VALUE_POINT_BYTES_FALLBACK);
  const hotPointBytes = hot.points > 0 ? hot.bytes / hot.points : HOT_POINT_BYTES_FALLBACK;
  const hotPoints = num(h.points);
  const rollupRows = num(cold.rollup_rows) + num(h.minutes) + num(h.hours);
  return usageOf(
    num(cold.points) + hotPoints + valuePoints,
    hotPoints * hotPointBytes + valueBytes,
    num(cold.bytes),
    rollupRows * rollupRowBytes,
    await growthPerDay(db, rollupRowBytes, projectId),
  );
}
