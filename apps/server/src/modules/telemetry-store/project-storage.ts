/**
 * A project's retention and disk use as the System tab shows them, and the platform admin's view
 * (docs/decisions/telemetry-storage.md "Retention", "Sizes"). Tenant-scoped: another tenant's project is a 404.
 */
import type { TAdminStorage, TProjectStorage, TRetention } from '@tessera/contracts';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { projectRetention, projectStorageExpiry, telemetryStorageRuns } from '../../db/schema.js';
import { ownedProject } from '../project-settings/owned-project.js';
import { platformStorageUsage, projectStorageUsage } from './sizes.js';

/** Runs of the storage job the admin sees, newest first. */
export const ADMIN_STORAGE_RUNS = 20;

/** Project `projectId`'s retention (all null — for ever — when never set). No tenant check: callers do it. */
export async function retentionOf(db: Db, projectId: number): Promise<TRetention> {
  const [row] = await db.select().from(projectRetention).where(eq(projectRetention.projectId, projectId));
  return { raw_days: row?.rawDays ?? null, rollup_1m_days: row?.rollup1mDays ?? null, rollup_1h_days: row?.rollup1hDays ?? null };
}

/**
 * GET projects/{id}/retention.
 * @throws AppError 404 when the project is not the tenant's.
 */
export async function getRetention(db: Db, tenantId: number, projectId: number): Promise<TRetention> {
  await ownedProject(db, tenantId, projectId);
  return retentionOf(db, projectId);
}

/**
 * PUT projects/{id}/retention: the next storage job run expires by it.
 * @throws AppError 404 when the project is not the tenant's.
 */
export async function putRetention(db: Db, tenantId: number, projectId: number, body: TRetention): Promise<TRetention> {
  await ownedProject(db, tenantId, projectId);
  const values = { rawDays: body.raw_days, rollup1mDays: body.rollup_1m_days, rollup1hDays: body.rollup_1h_days, updatedAt: Date.now() };
  await db
    .insert(projectRetention)
    .values({ projectId, ...values })
    .onConflictDoUpdate({ target: projectRetention.projectId, set: values });
  return retentionOf(db, projectId);
}

/**
 * GET projects/{id}/storage: retention, disk use (sizes.ts) and the last expiry.
 * @throws AppError 404 when the project is not the tenant's.
 */
export async function getProjectStorage(db: Db, tenantId: number, projectId: number): Promise<TProjectStorage> {
  await ownedProject(db, tenantId, projectId);
  const [expiry] = await db.select().from(projectStorageExpiry).where(eq(projectStorageExpiry.projectId, projectId));
  return {
    retention: await retentionOf(db, projectId),
    usage: await projectStorageUsage(db, projectId),
    last_expiry: expiry
      ? { at: expiry.lastRunAt, raw_points_removed: expiry.rawPointsRemoved, rollup_rows_removed: expiry.rollupRowsRemoved }
      : null,
  };
}

/** GET admin/telemetry-storage: the platform's disk use and the storage job's last runs. */
export async function getAdminStorage(db: Db): Promise<TAdminStorage> {
  const runs = await db.select().from(telemetryStorageRuns).orderBy(desc(telemetryStorageRuns.id)).limit(ADMIN_STORAGE_RUNS);
  return {
    usage: await platformStorageUsage(db),
    runs: runs.map((r) => ({
      id: r.id,
      started_at: r.startedAt,
      finished_at: r.finishedAt,
      days_compressed: r.daysCompressed,
      points_compressed: r.pointsCompressed,
      raw_points_removed: r.rawPointsRemoved,
      rollup_rows_removed: r.rollupRowsRemoved,
      error: r.error,
    })),
  };
}
