/** The fee estimate of one of the tenant's projects: its sensors and its device count (spec §2 system tab). */
import { count, eq } from 'drizzle-orm';
import type { TFeeEstimate } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { devices, projectSensors } from '../../db/schema.js';
import { retentionOf } from '../telemetry-store/project-storage.js';
import { estimateFee } from './fee-estimate.js';
import { PRICING } from './pricing.js';
import { ownedProject } from './owned-project.js';

/** Priced with the project's retention (telemetry-store). @throws AppError 404 when the project is not the tenant's. */
export async function projectFeeEstimate(db: Db, tenantId: number, projectId: number): Promise<TFeeEstimate> {
  await ownedProject(db, tenantId, projectId);
  const sensors = await db
    .select({
      key: projectSensors.key,
      enabled: projectSensors.enabled,
      uploadPeriodMs: projectSensors.uploadPeriodMs,
      valueCount: projectSensors.valueCount,
    })
    .from(projectSensors)
    .where(eq(projectSensors.projectId, projectId))
    .orderBy(projectSensors.key);
  const [{ total }] = await db.select({ total: count() }).from(devices).where(eq(devices.projectId, projectId));
  return estimateFee(sensors, total, PRICING, await retentionOf(db, projectId));
}
