/**
 * Telemetry profiles (spec §7 `GET {id}/profile/telemetries`; docs/decisions/sensors.md "Profiles"): the telemetry keys
 * a project's devices report, with their sensors' names, units, values per point and periods, in configuration order.
 */
import { asc, eq } from 'drizzle-orm';
import type { TProjectTelemetryProfile, TTelemetryProfileItem } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { projectSensors } from '../../db/schema.js';
import { ownedProject } from './ownership.js';
import { presentTelemetryProfileItem } from './presenters.js';

/** The telemetry keys of project `projectId` (any tenant's: callers check access first). */
export async function telemetryKeysOf(db: Db, projectId: number): Promise<TTelemetryProfileItem[]> {
  const rows = await db.select().from(projectSensors).where(eq(projectSensors.projectId, projectId)).orderBy(asc(projectSensors.id));
  return rows.map(presentTelemetryProfileItem);
}

/**
 * The telemetry profile of the tenant's project `projectId`.
 * @throws AppError 404 when the project is missing or another tenant's.
 */
export async function projectTelemetryProfile(db: Db, tenantId: number, projectId: number): Promise<TProjectTelemetryProfile> {
  await ownedProject(db, tenantId, projectId);
  return { project_id: projectId, telemetries: await telemetryKeysOf(db, projectId) };
}
