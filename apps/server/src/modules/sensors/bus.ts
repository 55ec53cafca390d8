/** The project's sensor bus (spec §3 "Project sensor bus": iface SPI/UART/I2C/I2S and port). */
import { eq } from 'drizzle-orm';
import type { TSensorBus } from '@tessera/contracts';
import type { Db } from '../../db/client.js';
import { projects } from '../../db/schema.js';
import { ownedProject } from './ownership.js';

/** The bus of the tenant's project. @throws AppError 404 when the project is not the tenant's. */
export async function getSensorBus(db: Db, tenantId: number, projectId: number): Promise<TSensorBus> {
  const p = await ownedProject(db, tenantId, projectId);
  return { iface: p.sensorIface, port: p.sensorPort };
}

/** Sets the bus of the tenant's project. @throws AppError 404 when the project is not the tenant's. */
export async function putSensorBus(db: Db, tenantId: number, projectId: number, bus: TSensorBus): Promise<TSensorBus> {
  await ownedProject(db, tenantId, projectId);
  await db.update(projects).set({ sensorIface: bus.iface, sensorPort: bus.port }).where(eq(projects.id, projectId));
  return bus;
}
