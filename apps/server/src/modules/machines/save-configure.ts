/**
 * Creating and replacing machine configures (spec §7 User API "machine configure … CRUD": `POST machine-configure`,
 * `PUT machine-configure/{id}`; docs/decisions/machines.md). Each component's product must be the tenant's; an edit
 * keeps the ids (and bindings) of the components it names by id and removes the others with their bindings, in one
 * transaction.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  ErrorCode,
  type TMachineComponentInput,
  type TMachineComponentUpdate,
  type TMachineConfigure,
  type TMachineConfigureCreate,
  type TMachineConfigureUpdate,
} from '@tessera/contracts';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/client.js';
import { machineBindings, machineComponents, machineConfigures, products } from '../../db/schema.js';
import type { TDbOrTx } from '../auth/db-types.js';
import { requireWithinPlan } from '../package-policy/policy.js';
import { assertTenantImage } from '../images/read-image.js';
import { configureView, ownedConfigure } from './configure-queries.js';
import { withMachineConflicts } from './conflicts.js';
import { presentConfigure } from './presenters.js';

/** A 404 whose details name the component field `field` of each component at `indexes`. */
function missingIn(what: string, field: string, indexes: number[]): AppError {
  const details = indexes.map((i) => ({ path: `body/components/${i}/${field}`, message: `${what} not found` }));
  return new AppError(404, ErrorCode.NotFound, `${what} not found: component ${indexes.map((i) => i + 1).join(', ')}`, details);
}

/** @throws AppError 404 naming each component whose product is not one of tenant `tenantId`'s. */
async function assertTenantProducts(tx: TDbOrTx, tenantId: number, components: TMachineComponentInput[]): Promise<void> {
  const ids = [...new Set(components.map((c) => c.product_id))];
  const found = await tx
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.tenantId, tenantId), inArray(products.id, ids)));
  const known = new Set(found.map((p) => p.id));
  const absent = components.flatMap((c, i) => (known.has(c.product_id) ? [] : [i]));
  if (absent.length) throw missingIn('product', 'product_id', absent);
}

const nameTaken = (name: string) => ({ machine_configures_tenant_name_uq: `a machine configure named "${name}" already exists` });

/** The row values of component `c` at `position` of configure `configureId`. */
const componentRow = (configureId: number, c: TMachineComponentInput, position: number) => ({
  configureId,
  name: c.name,
  productId: c.product_id,
  keys: c.keys,
  position,
});

/**
 * POST machine-configure: creates a configure of tenant `tenantId` with its components (in the order given).
 * @throws AppError 404 for a picture or a product that is not the tenant's (products named by component index);
 *   403 PLAN_LIMIT when the plan's `machine_configures_max` is reached; 409 CONFLICT when the name is taken (ignoring case).
 */
export async function createMachineConfigure(db: Db, tenantId: number, input: TMachineConfigureCreate): Promise<TMachineConfigure> {
  await assertTenantImage(db, tenantId, input.image_url);
  return withMachineConflicts(
    () =>
      db.transaction(async (tx) => {
        await requireWithinPlan(tx, tenantId, 'machine_configures');
        await assertTenantProducts(tx, tenantId, input.components);
        const [row] = await tx
          .insert(machineConfigures)
          .values({ tenantId, name: input.name, description: input.description, imageUrl: input.image_url, updatedAt: Date.now() })
          .returning();
        await tx.insert(machineComponents).values(input.components.map((c, i) => componentRow(row.id, c, i)));
        return presentConfigure(await configureView(tx, row));
      }),
    nameTaken(input.name),
  );
}

/**
 * Replaces the components of configure `configureId` with `components`: those carrying the id of one of its
 * components are updated in place (a product change drops that component's bindings, whose devices were of the old
 * product), the rest inserted, and its components left out deleted with their bindings (cascade).
 * @throws AppError 404 naming each component whose `id` is not one of the configure's.
 */
async function replaceComponents(tx: TDbOrTx, configureId: number, components: TMachineComponentUpdate[]): Promise<void> {
  const existing = await tx.select().from(machineComponents).where(eq(machineComponents.configureId, configureId));
  const byId = new Map(existing.map((c) => [c.id, c]));
  const foreign = components.flatMap((c, i) => (c.id !== undefined && !byId.has(c.id) ? [i] : []));
  if (foreign.length) throw missingIn('component', 'id', foreign);
  const keptIds = components.flatMap((c) => (c.id === undefined ? [] : [c.id]));
  const removed = existing.filter((c) => !keptIds.includes(c.id)).map((c) => c.id);
  if (removed.length) await tx.delete(machineComponents).where(inArray(machineComponents.id, removed));
  const reproduced = components.flatMap((c) => (c.id !== undefined && byId.get(c.id)?.productId !== c.product_id ? [c.id] : []));
  if (reproduced.length) await tx.delete(machineBindings).where(inArray(machineBindings.componentId, reproduced));
  if (keptIds.length) {
    // Kept components may swap names (A↔B): park them on names no one types (U+0001 and the id) before the final
    // names, so the per-configure unique index never sees a passing duplicate.
    await tx
      .update(machineComponents)
      .set({ name: sql`chr(1) || ${machineComponents.id}::text` })
      .where(inArray(machineComponents.id, keptIds));
  }
  const added: ReturnType<typeof componentRow>[] = [];
  for (const [position, c] of components.entries()) {
    if (c.id === undefined) added.push(componentRow(configureId, c, position));
    else
      await tx
        .update(machineComponents)
        .set(componentRow(configureId, c, position))
        .where(eq(machineComponents.id, c.id));
  }
  if (added.length) await tx.insert(machineComponents).values(added);
}

/**
 * PUT machine-configure/{id}: replaces the tenant's configure `id` (name, description, picture, components) in one
 * transaction; see {@link replaceComponents} for what happens to components and their bindings.
 * @throws AppError 404 when the configure, the picture, a product or a component id is not the tenant's (or the
 *   configure's); 409 CONFLICT when another configure has the name.
 */
export async function updateMachineConfigure(
  db: Db,
  tenantId: number,
  id: number,
  input: TMachineConfigureUpdate,
): Promise<TMachineConfigure> {
  await assertTenantImage(db, tenantId, input.image_url);
  return withMachineConflicts(
    () =>
      db.transaction(async (tx) => {
        await ownedConfigure(tx, tenantId, id, 'update');
        await assertTenantProducts(tx, tenantId, input.components);
        await replaceComponents(tx, id, input.components);
        const [saved] = await tx
          .update(machineConfigures)
          .set({ name: input.name, description: input.description, imageUrl: input.image_url, updatedAt: Date.now() })
          .where(eq(machineConfigures.id, id))
          .returning();
        return presentConfigure(await configureView(tx, saved));
      }),
    nameTaken(input.name),
  );
}
