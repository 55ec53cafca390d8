/**
 * Checking a machine's bindings before they are written (docs/decisions/machines.md "Bindings"): each names a
 * component of the machine's configure and a device of the tenant, of that component's product, not bound to another
 * machine. Every refusal names the bindings it concerns by index (`body/bindings/1`), as project roles name devices.
 */
import { and, eq, inArray, ne, or } from 'drizzle-orm';
import { ErrorCode, type TMachineBindingInput } from '@tessera/contracts';
import { AppError } from '../../core/errors.js';
import { devices, machineBindings, machines, projects } from '../../db/schema.js';
import type { TDbOrTx } from '../auth/db-types.js';
import type { TComponentView } from './presenters.js';

/** A binding ready to write. */
export interface TResolvedBinding {
  componentId: number;
  deviceId: number;
}

/** An error whose details name the binding at each of `indexes` (with `field` when one field is at fault). */
function bindingError(status: number, code: string, message: string, indexes: number[], detail: string, field = ''): AppError {
  const details = indexes.map((i) => ({ path: `body/bindings/${i}${field ? `/${field}` : ''}`, message: detail }));
  return new AppError(status, code, message, details);
}

/** The tenant's devices named by `bindings` (by id or Tangram ID), with their product. */
async function devicesNamed(tx: TDbOrTx, tenantId: number, bindings: TMachineBindingInput[]) {
  const ids = bindings.flatMap((b) => (b.device_id === undefined ? [] : [b.device_id]));
  const tangramIds = bindings.flatMap((b) => (b.tangram_id === undefined ? [] : [b.tangram_id]));
  return tx
    .select({ id: devices.id, tangramId: devices.tangramId, name: devices.name, productId: projects.productId })
    .from(devices)
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .where(
      and(
        eq(devices.tenantId, tenantId),
        or(ids.length ? inArray(devices.id, ids) : undefined, tangramIds.length ? inArray(devices.tangramId, tangramIds) : undefined),
      ),
    );
}

/**
 * Resolves `bindings` of machine `machineId` (null while it is being created) of tenant `tenantId`, whose configure
 * has `components`.
 * @throws AppError 404 NOT_FOUND naming bindings whose component is not one of the configure's (`/component_id`) or
 *   whose device is missing or another tenant's; 400 VALIDATION_FAILED naming bindings whose device is not of the
 *   component's product; 409 CONFLICT naming the devices bound to another machine, and which.
 */
export async function resolveBindings(
  tx: TDbOrTx,
  tenantId: number,
  machineId: number | null,
  components: TComponentView[],
  bindings: TMachineBindingInput[],
): Promise<TResolvedBinding[]> {
  if (bindings.length === 0) return [];
  const componentOf = new Map(components.map((c) => [c.id, c]));
  const noComponent = bindings.flatMap((b, i) => (componentOf.has(b.component_id) ? [] : [i]));
  if (noComponent.length) {
    throw bindingError(
      404,
      ErrorCode.NotFound,
      'component not found in the machine configure',
      noComponent,
      'component not found',
      'component_id',
    );
  }
  const found = await devicesNamed(tx, tenantId, bindings);
  const deviceOf = (b: TMachineBindingInput) =>
    found.find((d) => (b.device_id === undefined ? d.tangramId === b.tangram_id : d.id === b.device_id));
  const noDevice = bindings.flatMap((b, i) => (deviceOf(b) ? [] : [i]));
  if (noDevice.length) throw bindingError(404, ErrorCode.NotFound, 'device not found', noDevice, 'device not found');
  const resolved = bindings.map((b) => ({ binding: b, device: deviceOf(b)!, component: componentOf.get(b.component_id)! }));
  const wrongProduct = resolved.flatMap((r, i) => (r.device.productId === r.component.productId ? [] : [i]));
  if (wrongProduct.length) {
    const names = wrongProduct.map((i) => `"${resolved[i].device.name}" for "${resolved[i].component.name}"`).join(', ');
    throw bindingError(
      400,
      ErrorCode.Validation,
      `not a device of the component's product: ${names}`,
      wrongProduct,
      'device is not of the component’s product',
    );
  }
  const deviceIds = resolved.map((r) => r.device.id);
  const elsewhere = await tx
    .select({ deviceId: machineBindings.deviceId, machine: machines.name })
    .from(machineBindings)
    .innerJoin(machines, eq(machines.id, machineBindings.machineId))
    .where(and(inArray(machineBindings.deviceId, deviceIds), machineId === null ? undefined : ne(machineBindings.machineId, machineId)));
  if (elsewhere.length) {
    const taken = resolved.flatMap((r, i) => (elsewhere.some((e) => e.deviceId === r.device.id) ? [i] : []));
    const names = taken
      .map(
        (i) =>
          `"${resolved[i].device.name}" (${resolved[i].device.tangramId}) is bound to "${elsewhere.find((e) => e.deviceId === resolved[i].device.id)?.machine}"`,
      )
      .join(', ');
    throw bindingError(
      409,
      ErrorCode.Conflict,
      `device already bound to another machine: ${names}`,
      taken,
      'device bound to another machine',
    );
  }
  return resolved.map((r) => ({ componentId: r.component.id, deviceId: r.device.id }));
}
