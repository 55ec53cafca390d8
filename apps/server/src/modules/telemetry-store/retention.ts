/**
 * Expiry of telemetry by each project's retention (docs/decisions/telemetry-storage.md "Retention"): raw points go
 * a whole compressed day (chunk) at a time, rollups a series' bucket range at a time — never a row of the hot table.
 * Every batch is one transaction that also adds what it removed to the project's expiry row and to the run, so a
 * run cut short anywhere leaves each batch either done and counted or undone, and the next run, which reads what is
 * expired from the data again, finishes the rest without a cursor. After each batch the job rests as its pacer says
 * (pacing.ts), and a stopped pacer ends the pass before the next batch.
 */
import { DAY_MS, ROLLUP_BUCKETS_MS } from '@tessera/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { dayStartOf } from './days.js';
import { type Pacer, UNPACED } from './pacing.js';

/** Chunks (series-days) removed per transaction. */
export const EXPIRY_CHUNK_BATCH = 500;
/** Points of non-numeric keys (telemetry_values) removed per transaction. */
export const EXPIRY_VALUES_BATCH = 5_000;
/** Days of one series' rollup buckets removed per transaction. */
export const EXPIRY_ROLLUP_WINDOW_DAYS = 30;

/** What an expiry pass removed. */
export interface TExpiryResult {
  projects: number;
  chunks: number;
  rawPoints: number;
  rollupRows: number;
}

/** A project's retention in days (null: for ever). */
interface TProjectRetention {
  projectId: number;
  rawDays: number | null;
  rollup1mDays: number | null;
  rollup1hDays: number | null;
}

/** Test hook: called inside each batch's transaction after its delete (a throw there rolls the batch back). */
export type TExpiryBatchHook = (batch: { projectId: number; kind: 'raw' | 'rollup' }) => void;

/** The first day kept with a retention of `days` at `nowMs`: a day expires once it ended `days` days ago. */
export function firstKeptDay(nowMs: number, days: number): number {
  return dayStartOf(nowMs - days * DAY_MS);
}

/** Adds one batch's removals to the project's expiry row (last run and totals) and to the run, in `tx`. */
async function countRemoved(tx: Db, runId: number, nowMs: number, projectId: number, rawPoints: number, rollupRows: number) {
  await tx.execute(sql`insert into project_storage_expiry as e (project_id, last_run_id, last_run_at, raw_points_removed,
      rollup_rows_removed, raw_points_removed_total, rollup_rows_removed_total)
    values (${projectId}, ${runId}, ${nowMs}, ${rawPoints}, ${rollupRows}, ${rawPoints}, ${rollupRows})
    on conflict (project_id) do update set last_run_at = excluded.last_run_at, last_run_id = excluded.last_run_id,
      raw_points_removed = case when e.last_run_id = excluded.last_run_id then e.raw_points_removed else 0 end + ${rawPoints},
      rollup_rows_removed = case when e.last_run_id = excluded.last_run_id then e.rollup_rows_removed else 0 end + ${rollupRows},
      raw_points_removed_total = e.raw_points_removed_total + ${rawPoints},
      rollup_rows_removed_total = e.rollup_rows_removed_total + ${rollupRows}`);
  if (rawPoints + rollupRows > 0) {
    await tx.execute(sql`update telemetry_storage_runs set raw_points_removed = raw_points_removed + ${rawPoints},
      rollup_rows_removed = rollup_rows_removed + ${rollupRows} where id = ${runId}`);
  }
}

/** Removes the project's chunks of days before `keptFrom`, {@link EXPIRY_CHUNK_BATCH} per transaction. */
async function expireRaw(
  db: Db,
  runId: number,
  nowMs: number,
  projectId: number,
  keptFrom: number,
  out: TExpiryResult,
  pacer: Pacer,
  hook?: TExpiryBatchHook,
) {
  while (!pacer.isStopped) {
    const [r] = await pacer.run(() =>
      db.transaction(async (tx) => {
        const removed = rowsOf<{ chunks: number; points: number }>(
          await tx.execute(sql`with doomed as (
            select c.device_id, c.key, c.day_start from telemetry_chunk c
            where c.device_id in (select id from devices where project_id = ${projectId}) and c.day_start < ${keptFrom}
            limit ${EXPIRY_CHUNK_BATCH}
          ), del as (
            delete from telemetry_chunk c using doomed d
            where c.device_id = d.device_id and c.key = d.key and c.day_start = d.day_start returning c.n
          ) select count(*)::int as chunks, coalesce(sum(n), 0)::bigint as points from del`),
        );
        hook?.({ projectId, kind: 'raw' });
        const chunks = removed[0].chunks;
        const points = Number(removed[0].points);
        if (chunks > 0) {
          await tx.execute(sql`update telemetry_usage_daily set points = 0, chunk_bytes = 0
          where project_id = ${projectId} and day_start < ${keptFrom}`);
        }
        await countRemoved(tx, runId, nowMs, projectId, points, 0);
        return [{ chunks, points }];
      }),
    );
    out.chunks += r.chunks;
    out.rawPoints += r.points;
    if (r.chunks < EXPIRY_CHUNK_BATCH) return;
  }
}

/**
 * Removes the project's points of non-numeric keys (telemetry_values, docs/decisions/telemetry.md) older than
 * `keptFrom` — the raw retention, by the point's own ts — {@link EXPIRY_VALUES_BATCH} per transaction, counted as raw
 * points.
 */
async function expireValues(db: Db, runId: number, nowMs: number, projectId: number, keptFrom: number, out: TExpiryResult, pacer: Pacer) {
  while (!pacer.isStopped) {
    const points = await pacer.run(() =>
      db.transaction(async (tx) => {
        const [r] = rowsOf<{ n: number }>(
          await tx.execute(sql`with doomed as (
            select v.device_id, v.key, v.ts from telemetry_values v
            where v.device_id in (select id from devices where project_id = ${projectId}) and v.ts < ${keptFrom}
            limit ${EXPIRY_VALUES_BATCH}
          ), del as (
            delete from telemetry_values v using doomed d
            where v.device_id = d.device_id and v.key = d.key and v.ts = d.ts returning 1
          ) select count(*)::int as n from del`),
        );
        await countRemoved(tx, runId, nowMs, projectId, r.n, 0);
        return r.n;
      }),
    );
    out.rawPoints += points;
    if (points < EXPIRY_VALUES_BATCH) return;
  }
}

/**
 * Removes the project's rollup rows of bucket size `bucketMs` before `keptFrom`: per series (device, key, found by a
 * skip scan of the primary key), {@link EXPIRY_ROLLUP_WINDOW_DAYS} days of buckets per transaction.
 */
async function expireRollups(
  db: Db,
  runId: number,
  nowMs: number,
  projectId: number,
  bucketMs: number,
  keptFrom: number,
  out: TExpiryResult,
  pacer: Pacer,
  hook?: TExpiryBatchHook,
) {
  const series = rowsOf<{ device_id: number; key: string }>(
    await db.execute(sql`with recursive k as (
        select d.id as device_id, (select min(key) from telemetry_rollup r where r.device_id = d.id) as key
        from devices d where d.project_id = ${projectId}
        union all
        select k.device_id, (select min(key) from telemetry_rollup r where r.device_id = k.device_id and r.key > k.key)
        from k where k.key is not null
      ) select device_id, key from k where key is not null`),
  );
  const windowMs = EXPIRY_ROLLUP_WINDOW_DAYS * DAY_MS;
  for (const s of series) {
    for (;;) {
      if (pacer.isStopped) return;
      const removed = await pacer.run(() =>
        db.transaction(async (tx) => {
          const [r] = rowsOf<{ n: number }>(
            await tx.execute(sql`with del as (
              delete from telemetry_rollup where device_id = ${s.device_id} and key = ${s.key} and bucket_ms = ${bucketMs}
                and bucket_ts < least(${keptFrom}::bigint, (select min(bucket_ts) from telemetry_rollup
                  where device_id = ${s.device_id} and key = ${s.key} and bucket_ms = ${bucketMs}) + ${windowMs}::bigint)
              returning 1
            ) select count(*)::int as n from del`),
          );
          hook?.({ projectId, kind: 'rollup' });
          await countRemoved(tx, runId, nowMs, projectId, 0, r.n);
          return r.n;
        }),
      );
      out.rollupRows += removed;
      if (removed === 0) break;
    }
  }
  const column = sql.raw(bucketMs === ROLLUP_BUCKETS_MS[0] ? 'rollup_1m_rows' : 'rollup_1h_rows');
  await db.execute(sql`update telemetry_usage_daily set ${column} = 0 where project_id = ${projectId} and day_start < ${keptFrom}`);
}

/**
 * Expires every project's telemetry older than its retention at `nowMs`, recording what each batch removed under
 * run `runId` (`telemetry_storage_runs`). A project with a retention set gets its expiry row's `last_run_at` moved
 * even when nothing was due, so the vendor sees the check ran. Each batch is followed by `pacer`'s rest; a stopped
 * pacer ends the pass before the next batch (the next run goes on).
 * @throws the database error of a failed batch (earlier batches stay done and counted; the next run goes on).
 */
export async function expireByRetention(
  db: Db,
  runId: number,
  nowMs: number,
  hook?: TExpiryBatchHook,
  pacer: Pacer = UNPACED,
): Promise<TExpiryResult> {
  const projects = rowsOf<TProjectRetention>(
    await db.execute(sql`select project_id as "projectId", raw_days as "rawDays", rollup_1m_days as "rollup1mDays",
      rollup_1h_days as "rollup1hDays" from project_retention
      where raw_days is not null or rollup_1m_days is not null or rollup_1h_days is not null order by project_id`),
  );
  const out: TExpiryResult = { projects: projects.length, chunks: 0, rawPoints: 0, rollupRows: 0 };
  const [minuteMs, hourMs] = ROLLUP_BUCKETS_MS;
  for (const p of projects) {
    if (pacer.isStopped) break;
    if (p.rawDays !== null) {
      await expireRaw(db, runId, nowMs, p.projectId, firstKeptDay(nowMs, p.rawDays), out, pacer, hook);
      await expireValues(db, runId, nowMs, p.projectId, firstKeptDay(nowMs, p.rawDays), out, pacer);
    }
    if (p.rollup1mDays !== null)
      await expireRollups(db, runId, nowMs, p.projectId, minuteMs, firstKeptDay(nowMs, p.rollup1mDays), out, pacer, hook);
    if (p.rollup1hDays !== null)
      await expireRollups(db, runId, nowMs, p.projectId, hourMs, firstKeptDay(nowMs, p.rollup1hDays), out, pacer, hook);
    await db.transaction((tx) => countRemoved(tx, runId, nowMs, p.projectId, 0, 0));
  }
  return out;
}
