/**
 * Creating and replacing machines (spec §7 User API "machine … instance … CRUD": `POST machine-instance`, `PUT
 * machine-instance/{id}`; docs/decisions/machines.md). The configure is read under a share lock, so an edit removing
 * a component or a delete of the configure waits for the machine's transaction (and the other way round).
 */
import { eq } from 'drizzle-orm';
import type { TMachineInstance, TMachineInstanceCreate, TMachineInstanceUpdate } from '@tessera/contracts';
import type { TPrincipal } from '../../core/principal.js';
import type { Db } from '../../db/client.js';
import { machineBindings, machines } from '../../db/schema.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { requireWithinPlan } from '../package-policy/policy.js';
import { resolveBindings, type TResolvedBinding } from './bindings.js';
import { configureView, ownedConfigure } from './configure-queries.js';
import { withMachineConflicts } from './conflicts.js';
import { instanceViews, ownedMachine, type TMachineRow } from './instance-queries.js';
import { presentInstance } from './presenters.js';

/** The machine's columns from a body. */
const machineColumns = (input: TMachineInstanceUpdate) => ({
  name: input.name,
  serialNumber: input.serial_number,
  location: input.location,
  machineClass: input.machine_class,
  updatedAt: Date.now(),
});

/** Replaces machine `machineId`'s bindings with `bindings`. */
async function writeBindings(tx: TDbOrTx, machineId: number, bindings: TResolvedBinding[]): Promise<void> {
  await tx.delete(machineBindings).where(eq(machineBindings.machineId, machineId));
  if (bindings.length) await tx.insert(machineBindings).values(bindings.map((b) => ({ machineId, ...b })));
}

/** The machine presented to `principal` (a vendor: every bound device). */
async function present(tx: TDbOrTx, principal: TPrincipal, row: TMachineRow): Promise<TMachineInstance> {
  const [view] = await instanceViews(tx, principal, [row]);
  return presentInstance(view);
}

const nameTaken = (name: string) => ({ machines_tenant_name_uq: `a machine named "${name}" already exists` });

/**
 * POST machine-instance: a machine of the tenant's configure `input.configure_id` with its bindings, in one transaction.
 * @throws AppError 404 when the configure is not the tenant's, and the binding errors of {@link resolveBindings}
 *   (404, 400, 409 naming bindings by index); 403 PLAN_LIMIT when the plan's `machines_max` is reached; 409 CONFLICT
 *   when the tenant has a machine of that name (ignoring case).
 */
export async function createMachineInstance(db: Db, principal: TPrincipal, input: TMachineInstanceCreate): Promise<TMachineInstance> {
  const { tenantId } = principal;
  return withMachineConflicts(
    () =>
      db.transaction(async (tx) => {
        const configure = await configureView(tx, await ownedConfigure(tx, tenantId, input.configure_id, 'share'));
        await requireWithinPlan(tx, tenantId, 'machines');
        const bindings = await resolveBindings(tx, tenantId, null, configure.components, input.bindings);
        const [row] = await tx
          .insert(machines)
          .values({ tenantId, configureId: configure.configure.id, ...machineColumns(input) })
          .returning();
        await writeBindings(tx, row.id, bindings);
        return present(tx, principal, row);
      }),
    nameTaken(input.name),
  );
}

/**
 * PUT machine-instance/{id}: replaces the tenant's machine `id` (name, serial, location, class, bindings) in one
 * transaction; components left out of `bindings` become unbound.
 * @throws AppError 404 when the machine is not the tenant's, the binding errors of {@link resolveBindings}, and 409
 *   CONFLICT when another machine has the name.
 */
export async function updateMachineInstance(
  db: Db,
  principal: TPrincipal,
  id: number,
  input: TMachineInstanceUpdate,
): Promise<TMachineInstance> {
  const { tenantId } = principal;
  return withMachineConflicts(
    () =>
      db.transaction(async (tx) => {
        const machine = await ownedMachine(tx, tenantId, id, true);
        const configure = await configureView(tx, await ownedConfigure(tx, tenantId, machine.configureId, 'share'));
        const bindings = await resolveBindings(tx, tenantId, id, configure.components, input.bindings);
        const [saved] = await tx.update(machines).set(machineColumns(input)).where(eq(machines.id, id)).returning();
        await writeBindings(tx, id, bindings);
        return present(tx, principal, saved);
      }),
    nameTaken(input.name),
  );
}
