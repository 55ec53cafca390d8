/**
 * Deleting machine configures and machines (spec §7 User API "machine configure, instance … CRUD": `DELETE
 * machine-configure/{id}`, `DELETE machine-instance/{id}`; docs/decisions/machines.md "In use").
 */
import { count, eq } from 'drizzle-orm';
import { ErrorCode } from '@tessera/contracts';
import { conflict } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { machineConfigures, machines } from '../../db/schema.js';
import { ownedConfigure } from './configure-queries.js';
import { ownedMachine } from './instance-queries.js';

/**
 * Deletes the tenant's configure `id` with its components. The row lock makes a machine being created on it wait, so
 * the count is exact.
 * @throws AppError 404 when it is missing or another tenant's; 409 IN_USE while machines of it exist (the message
 *   names how many).
 */
export async function deleteMachineConfigure(db: Db, tenantId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const configure = await ownedConfigure(tx, tenantId, id, 'update');
    const [{ n }] = await tx.select({ n: count() }).from(machines).where(eq(machines.configureId, id));
    if (n > 0) {
      throw conflict(
        `the machine configure "${configure.name}" is used by ${n} machine(s); delete them before deleting it`,
        ErrorCode.InUse,
      );
    }
    await tx.delete(machineConfigures).where(eq(machineConfigures.id, id));
  });
}

/**
 * Deletes the tenant's machine `id`; its bindings, users' grants (`machine_authz`), machine-role links and
 * authorisation requests go with it (cascade).
 * @throws AppError 404 when it is missing or another tenant's.
 */
export async function deleteMachineInstance(db: Db, tenantId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    await ownedMachine(tx, tenantId, id, true);
    await tx.delete(machines).where(eq(machines.id, id));
  });
}
