/**
 * Telemetry storage seen from the console: a project's retention (how long raw points and the 1-minute and 1-hour
 * rollups are kept), the disk its telemetry uses and its growth per day, the last expiry, and the platform admin's
 * view of every run of the storage job. Decisions: docs/decisions/telemetry-storage.md ("Retention", "Sizes").
 */
import { z } from 'zod';
import { API } from './api-paths.js';

/** Paths of the telemetry storage endpoints (server routes, console and tests). */
export const storagePaths = {
  retention: (projectId: number) => `${API.frontstage}/projects/${projectId}/retention`,
  projectStorage: (projectId: number) => `${API.frontstage}/projects/${projectId}/storage`,
  adminStorage: `${API.frontstage}/admin/telemetry-storage`,
} as const;

/** The shortest retention of anything kept (days): the hot window never exceeds it. */
export const RETENTION_MIN_DAYS = 7;
/** The longest retention that is not "for ever" (days): 10 years. */
export const RETENTION_MAX_DAYS = 3_650;

/** A retention in days, or null for "kept for ever" (the default). */
export const ZRetentionDays = z.number().int().min(RETENTION_MIN_DAYS).max(RETENTION_MAX_DAYS).nullable();

/** GET/PUT projects/{id}/retention: days each kind of telemetry is kept (null: for ever). */
export const ZRetention = z.object({
  raw_days: ZRetentionDays,
  rollup_1m_days: ZRetentionDays,
  rollup_1h_days: ZRetentionDays,
});
export type TRetention = z.infer<typeof ZRetention>;

/** Bytes on disk by where they are (estimates per project: see the decisions' "Sizes"). */
export const ZStorageBytes = z.object({
  raw_hot: z.number().nonnegative(),
  raw_compressed: z.number().nonnegative(),
  rollups: z.number().nonnegative(),
  total: z.number().nonnegative(),
});
export type TStorageBytes = z.infer<typeof ZStorageBytes>;

/** Points stored, bytes on disk and the growth of one project's (or the platform's) telemetry. */
export const ZStorageUsage = z.object({
  /** Raw points stored (hot and compressed). */
  points: z.number().int().nonnegative(),
  bytes: ZStorageBytes,
  /** Bytes on disk per raw point stored, everything included (null with no point). */
  bytes_per_point: z.number().nonnegative().nullable(),
  /** Points and bytes added per day, averaged over the last compressed days (null before the first). */
  growth_per_day: z.object({ points: z.number().nonnegative(), bytes: z.number().nonnegative() }).nullable(),
});
export type TStorageUsage = z.infer<typeof ZStorageUsage>;

/** The last expiry of a project's telemetry by its retention. */
export const ZLastExpiry = z.object({
  /** When the run that last removed (or checked) the project's expired data ended, epoch ms. */
  at: z.number().int(),
  raw_points_removed: z.number().int().nonnegative(),
  rollup_rows_removed: z.number().int().nonnegative(),
});

/** GET projects/{id}/storage: the project's retention, disk use and last expiry. */
export const ZProjectStorage = z.object({
  retention: ZRetention,
  usage: ZStorageUsage,
  last_expiry: ZLastExpiry.nullable(),
});
export type TProjectStorage = z.infer<typeof ZProjectStorage>;

/** One run of the storage job (platform admin). */
export const ZStorageRun = z.object({
  id: z.number().int(),
  started_at: z.number().int(),
  /** null while it runs, or when its replica stopped before the end. */
  finished_at: z.number().int().nullable(),
  days_compressed: z.number().int(),
  points_compressed: z.number().int(),
  raw_points_removed: z.number().int(),
  rollup_rows_removed: z.number().int(),
  error: z.string().nullable(),
});
export type TStorageRun = z.infer<typeof ZStorageRun>;

/** GET admin/telemetry-storage: the platform's disk use (measured from the catalog) and the job's last runs. */
export const ZAdminStorage = z.object({
  usage: ZStorageUsage,
  runs: z.array(ZStorageRun),
});
export type TAdminStorage = z.infer<typeof ZAdminStorage>;
