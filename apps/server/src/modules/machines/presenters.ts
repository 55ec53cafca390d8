/** The response shapes of machines (ZMachineConfigure, ZMachineInstance); never a database row. */
import type { TMachineBoundDevice, TMachineComponent, TMachineConfigure, TMachineInstance } from '@tessera/contracts';
import type { machineComponents, machineConfigures, machines } from '../../db/schema.js';

/** A component row with its product's name, as read by configure-queries.ts. */
export type TComponentView = typeof machineComponents.$inferSelect & { productName: string };

/** A configure row with its components (in position order) and how many machines use it. */
export interface TConfigureView {
  configure: typeof machineConfigures.$inferSelect;
  components: TComponentView[];
  instanceCount: number;
}

/** A machine row with its configure's view and the devices bound, by component id (only those the caller may see). */
export interface TInstanceView {
  machine: typeof machines.$inferSelect;
  configure: TConfigureView;
  devices: ReadonlyMap<number, TMachineBoundDevice>;
}

/** Presents a component. */
export function presentComponent(c: TComponentView): TMachineComponent {
  return { id: c.id, name: c.name, product_id: c.productId, product_name: c.productName, keys: c.keys, position: c.position };
}

/** Presents a configure: components in order; `in_use` when a machine uses it. */
export function presentConfigure(view: TConfigureView): TMachineConfigure {
  const { configure } = view;
  return {
    id: configure.id,
    name: configure.name,
    description: configure.description,
    image_url: configure.imageUrl,
    components: view.components.map(presentComponent),
    instance_count: view.instanceCount,
    in_use: view.instanceCount > 0,
    created_at: configure.createdAt,
    updated_at: configure.updatedAt,
  };
}

/** Presents a machine: every component of its configure with the device bound to it, or null. */
export function presentInstance(view: TInstanceView): TMachineInstance {
  const { machine, configure } = view;
  return {
    id: machine.id,
    configure_id: configure.configure.id,
    configure_name: configure.configure.name,
    image_url: configure.configure.imageUrl,
    name: machine.name,
    serial_number: machine.serialNumber,
    location: machine.location,
    machine_class: machine.machineClass,
    components: configure.components.map((c) => ({ ...presentComponent(c), device: view.devices.get(c.id) ?? null })),
    created_at: machine.createdAt,
    updated_at: machine.updatedAt,
  };
}
