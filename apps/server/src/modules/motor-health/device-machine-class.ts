/**
 * The machine class a device's motor-health zones use (docs/decisions/motor-health.md "Machine class"): that of the
 * machine the device is bound to (`machine_bindings`, one machine per device at most), else DEFAULT_MACHINE_CLASS.
 */
import { DEFAULT_MACHINE_CLASS, type TMachineClass } from '@tessera/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { machineBindings, machines } from '../../db/schema.js';
import type { TDeviceRow } from '../devices/access.js';

/** The class used and where it came from: the bound machine (its id and name) or the default (`machine` null). */
export interface TDeviceMachineClass {
  machineClass: TMachineClass;
  source: 'machine' | 'default';
  machine: { id: number; name: string } | null;
}

/** The class of the machine `device` is bound to (a machine of the device's own tenant), else the default class. */
export async function machineClassOfDevice(db: Db, device: Pick<TDeviceRow, 'id' | 'tenantId'>): Promise<TDeviceMachineClass> {
  const [bound] = await db
    .select({ id: machines.id, name: machines.name, machineClass: machines.machineClass })
    .from(machineBindings)
    .innerJoin(machines, eq(machines.id, machineBindings.machineId))
    .where(and(eq(machineBindings.deviceId, device.id), eq(machines.tenantId, device.tenantId)))
    .limit(1);
  if (!bound) return { machineClass: DEFAULT_MACHINE_CLASS, source: 'default', machine: null };
  return { machineClass: bound.machineClass, source: 'machine', machine: { id: bound.id, name: bound.name } };
}
