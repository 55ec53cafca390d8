/** Tenant checks of the sensors module: a project or sensor of another tenant answers 404 (§6 tenant owner). */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { notFound } from '../../core/errors.js';
import { projects, projectSensors } from '../../db/schema.js';
import type { TSensorRow } from './presenters.js';

/** The tenant's project `projectId`. @throws AppError 404 when missing or another tenant's. */
export async function ownedProject(db: Db, tenantId: number, projectId: number): Promise<typeof projects.$inferSelect> {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.tenantId, tenantId)));
  if (!row) throw notFound('project');
  return row;
}

/** The tenant's sensor `sensorId`. @throws AppError 404 when missing or of another tenant's project. */
export async function ownedSensor(db: Db, tenantId: number, sensorId: number): Promise<TSensorRow> {
  const [row] = await db
    .select({ sensor: projectSensors })
    .from(projectSensors)
    .innerJoin(projects, eq(projects.id, projectSensors.projectId))
    .where(and(eq(projectSensors.id, sensorId), eq(projects.tenantId, tenantId)));
  if (!row) throw notFound('sensor');
  return row.sensor;
}
