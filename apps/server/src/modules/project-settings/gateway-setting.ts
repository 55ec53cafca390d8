/**
 * The project's gateway setting (docs/decisions/device-apis.md "Gateway"): whether a gateway of the project may create
 * a device it names that the project does not have. Off by default: a gateway then reaches only registered devices.
 */
import { and, eq } from 'drizzle-orm';
import type { TProjectGatewaySettings } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { projects } from '../../db/schema.js';
import { ownedProject } from './owned-project.js';

/**
 * Project `id`'s gateway setting.
 * @throws AppError 404 when the project is not `tenantId`'s.
 */
export async function getGatewaySettings(db: Db, tenantId: number, id: number): Promise<TProjectGatewaySettings> {
  await ownedProject(db, tenantId, id);
  const [row] = await db.select({ creates: projects.gatewayCreatesDevices }).from(projects).where(eq(projects.id, id));
  return { gateway_creates_devices: row?.creates ?? false };
}

/**
 * Sets project `id`'s gateway setting; gateways see it at their next unknown name (names are not cached as unknown
 * for more than a second).
 * @throws AppError 404 when the project is not `tenantId`'s.
 */
export async function putGatewaySettings(
  db: Db,
  tenantId: number,
  id: number,
  body: TProjectGatewaySettings,
): Promise<TProjectGatewaySettings> {
  await ownedProject(db, tenantId, id);
  await db
    .update(projects)
    .set({ gatewayCreatesDevices: body.gateway_creates_devices })
    .where(and(eq(projects.id, id), eq(projects.tenantId, tenantId)));
  return { gateway_creates_devices: body.gateway_creates_devices };
}
