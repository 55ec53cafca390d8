/**
 * What the telemetry storage job keeps beside the data (docs/decisions/telemetry-storage.md "Retention", "Sizes"):
 * each project's retention, its runs, each project's last expiry, and per project and UTC day the points and bytes
 * of its compressed telemetry (sums kept by the job, so the console reads sizes without scanning data).
 * Part of the one Drizzle schema (schema.ts re-exports every schema file); times are epoch ms in `bigint` columns.
 */
import { bigint, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { epochMs, updatedAt } from './columns.js';
import { projects } from './schema-catalogue.js';

/** How long a project's telemetry is kept, in days; null: for ever (the default, also when a project has no row). */
export const projectRetention = pgTable('project_retention', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  rawDays: integer('raw_days'),
  rollup1mDays: integer('rollup_1m_days'),
  rollup1hDays: integer('rollup_1h_days'),
  updatedAt: updatedAt(),
});

/** One run of the storage job: what it compressed and removed; `finishedAt` null while running or if cut short. */
export const telemetryStorageRuns = pgTable('telemetry_storage_runs', {
  id: serial('id').primaryKey(),
  startedAt: epochMs('started_at').notNull(),
  finishedAt: epochMs('finished_at'),
  daysCompressed: integer('days_compressed').notNull().default(0),
  pointsCompressed: bigint('points_compressed', { mode: 'number' }).notNull().default(0),
  rawPointsRemoved: bigint('raw_points_removed', { mode: 'number' }).notNull().default(0),
  rollupRowsRemoved: bigint('rollup_rows_removed', { mode: 'number' }).notNull().default(0),
  error: text('error'),
});

/**
 * A project's last expiry: the run that last expired its data and what it removed (added batch by batch, in the
 * batch's transaction, so a run cut short and the one that finishes its work count every row once), and totals.
 */
export const projectStorageExpiry = pgTable('project_storage_expiry', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  lastRunId: integer('last_run_id').notNull(),
  lastRunAt: epochMs('last_run_at').notNull(),
  rawPointsRemoved: bigint('raw_points_removed', { mode: 'number' }).notNull().default(0),
  rollupRowsRemoved: bigint('rollup_rows_removed', { mode: 'number' }).notNull().default(0),
  rawPointsRemovedTotal: bigint('raw_points_removed_total', { mode: 'number' }).notNull().default(0),
  rollupRowsRemovedTotal: bigint('rollup_rows_removed_total', { mode: 'number' }).notNull().default(0),
});

/**
 * Per project and compressed UTC day: raw points in its chunks, their bytes (column sizes plus a row overhead), and
 * the rollup rows of that day (estimated from the chunks: a series' day has at most 1,440 1-minute and 24 1-hour
 * buckets). Written when the day is compressed or merged into; zeroed part by part as retention expires it.
 */
export const telemetryUsageDaily = pgTable(
  'telemetry_usage_daily',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    dayStart: epochMs('day_start').notNull(),
    points: bigint('points', { mode: 'number' }).notNull(),
    chunkBytes: bigint('chunk_bytes', { mode: 'number' }).notNull(),
    rollup1mRows: bigint('rollup_1m_rows', { mode: 'number' }).notNull(),
    rollup1hRows: bigint('rollup_1h_rows', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.dayStart] })],
);

/**
 * How far the storage job has merged a day of a partition it compresses in slices (modules/telemetry-store/slices.ts):
 * the last series (device, key in the source's primary key order) merged, written in each slice's transaction, so a
 * run cut short goes on after it; `telemetry_points()` leaves out the source's rows of the series up to it (the chunks
 * hold them). `keyId` for a source with key ids, `key` for one of the earlier layout (key as text). Deleted with the
 * partition.
 */
export const telemetryCompressProgress = pgTable(
  'telemetry_compress_progress',
  {
    source: text('source').notNull(),
    dayStart: bigint('day_start', { mode: 'number' }).notNull(),
    deviceId: integer('device_id').notNull(),
    keyId: integer('key_id'),
    key: text('key'),
  },
  (t) => [primaryKey({ columns: [t.source, t.dayStart] })],
);
