/**
 * Machines (spec §1 "machines (multi-component assemblies)", §2 menu "Machine, Equipment", §3 "machine configure and
 * instance", §7 User API "machine configure, instance and role CRUD"). A **machine configure** is a kind of machine:
 * a name, a description, a picture and its components, each naming the product whose devices fill it and the
 * telemetry keys that matter for it. A **machine instance** is one real machine of a configure, with at most one
 * device bound to each component. Decisions (bounds, who sees what, in-use, conflicts): docs/decisions/machines.md.
 */
import { z } from 'zod';
import { API } from './api-paths.js';
import { ZImageUrl } from './images.js';
import { ZId, ZIdText } from './input.js';
import { DESCRIPTION_MAX, NAME_LONG_MAX, NAME_MAX, NUMBER_MAX } from './limits.js';
import { DEFAULT_MACHINE_CLASS, MACHINE_CLASSES } from './machine-class.js';
import { ZListQuery, zPage } from './pagination.js';
import { TANGRAM_ID_LENGTH } from './tangram-id.js';
import { ZTelemetryKey } from './telemetry.js';

/** Paths of the machine endpoints (server routes, console and tests), under `/frontstage/user/v1`. */
export const machinePaths = {
  configures: `${API.user}/machine-configure`,
  configure: (id: number) => `${API.user}/machine-configure/${id}`,
  instances: `${API.user}/machine-instance`,
  instance: (id: number) => `${API.user}/machine-instance/${id}`,
} as const;

/** A configure, component or machine name is an entity name (docs/decisions/console.md): 1–32 characters after trimming. */
export const MACHINE_NAME_MAX = NAME_MAX;
/** A configure has 1 to this many components (a machine is an assembly of a few devices, not a fleet). */
export const MACHINE_COMPONENTS_MAX = 20;
/** A component shows 1 to this many telemetry keys of its product. */
export const MACHINE_COMPONENT_KEYS_MAX = 10;
/** A machine's serial number: 0–32 characters (§5 "number max 32"). */
export const MACHINE_SERIAL_MAX = NUMBER_MAX;
/** A machine's location: 0–64 characters (the long reading of §5 "20, 32 or 64"). */
export const MACHINE_LOCATION_MAX = NAME_LONG_MAX;

/** Adds an issue with `message` at `[...at(i)]` of every repeat in `items` (compared by `key`); the first stays valid. */
function refineUnique<T>(items: T[], ctx: z.RefinementCtx, key: (item: T) => unknown, at: (i: number) => PropertyKey[], message: string) {
  const seen = new Set<unknown>();
  items.forEach((item, i) => {
    const k = key(item);
    if (k === undefined) return;
    if (seen.has(k)) ctx.addIssue({ code: 'custom', path: at(i), message });
    seen.add(k);
  });
}

const ZMachineName = z.string().trim().min(1).max(MACHINE_NAME_MAX);

/** A component as written: its name, its product (one of the tenant's) and 1–10 distinct telemetry keys, in order. */
export const ZMachineComponentInput = z.object({
  name: ZMachineName,
  product_id: ZId,
  keys: z
    .array(ZTelemetryKey)
    .min(1)
    .max(MACHINE_COMPONENT_KEYS_MAX)
    .superRefine((keys, ctx) =>
      refineUnique(
        keys,
        ctx,
        (k) => k,
        (i) => [i],
        'duplicate key',
      ),
    ),
});
/** {@link ZMachineComponentInput} parsed: what the server reads (defaults applied). */
export type TMachineComponentInput = z.infer<typeof ZMachineComponentInput>;

/** A component in PUT machine-configure/{id}: with `id`, one of the configure's components kept (and its bindings). */
export const ZMachineComponentUpdate = ZMachineComponentInput.extend({ id: ZId.optional() });
/** {@link ZMachineComponentUpdate} parsed: what the server reads (defaults applied). */
export type TMachineComponentUpdate = z.infer<typeof ZMachineComponentUpdate>;

/** Component names unique ignoring case, component ids unique, each repeat an issue at its index. */
function refineComponents(components: { name: string; id?: number }[], ctx: z.RefinementCtx) {
  refineUnique(
    components,
    ctx,
    (c) => c.name.toLowerCase(),
    (i) => [i, 'name'],
    'duplicate component name',
  );
  refineUnique(
    components,
    ctx,
    (c) => c.id,
    (i) => [i, 'id'],
    'duplicate component',
  );
}

const configureFields = {
  name: ZMachineName,
  description: z.string().trim().max(DESCRIPTION_MAX).default(''),
  /** An image answered by `POST /frontstage/v1/image/upload` to the same tenant, or null. */
  image_url: ZImageUrl.nullable().default(null),
};

/** POST machine-configure: a configure with 1–{@link MACHINE_COMPONENTS_MAX} components (their order is kept). */
export const ZMachineConfigureCreate = z.object({
  ...configureFields,
  components: z.array(ZMachineComponentInput).min(1).max(MACHINE_COMPONENTS_MAX).superRefine(refineComponents),
});
/** {@link ZMachineConfigureCreate} parsed: what the server reads (defaults applied). */
export type TMachineConfigureCreate = z.infer<typeof ZMachineConfigureCreate>;
/** What the console's form sends before defaults apply (description and picture may be left out). */
export type TMachineConfigureCreateInput = z.input<typeof ZMachineConfigureCreate>;

/**
 * PUT machine-configure/{id}: replaces name, description, picture and components. A component with `id` keeps its
 * id and its bindings (unless its product changes); one without is new; the configure's components left out are
 * removed with their bindings.
 */
export const ZMachineConfigureUpdate = z.object({
  ...configureFields,
  components: z.array(ZMachineComponentUpdate).min(1).max(MACHINE_COMPONENTS_MAX).superRefine(refineComponents),
});
/** {@link ZMachineConfigureUpdate} parsed: what the server reads (defaults applied). */
export type TMachineConfigureUpdate = z.infer<typeof ZMachineConfigureUpdate>;
/** What the console's form sends for PUT before defaults apply. */
export type TMachineConfigureUpdateInput = z.input<typeof ZMachineConfigureUpdate>;

/** A component as presented, in the configure's order (`position` from 0). */
export const ZMachineComponent = z.object({
  id: z.number().int(),
  name: z.string(),
  product_id: z.number().int(),
  product_name: z.string(),
  keys: z.array(z.string()),
  position: z.number().int(),
});
/** The shape of {@link ZMachineComponent}. */
export type TMachineComponent = z.infer<typeof ZMachineComponent>;

/** A configure as presented. `in_use` = it has machines (`instance_count` > 0), so DELETE answers 409 IN_USE. */
export const ZMachineConfigure = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  image_url: z.string().nullable(),
  components: z.array(ZMachineComponent),
  instance_count: z.number().int(),
  in_use: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});
/** The shape of {@link ZMachineConfigure}. */
export type TMachineConfigure = z.infer<typeof ZMachineConfigure>;

/** GET machine-configure: a page of the tenant's configures by name; `q` matches the name. */
export const ZMachineConfigureList = zPage(ZMachineConfigure);
/** The shape of {@link ZMachineConfigureList}. */
export type TMachineConfigureList = z.infer<typeof ZMachineConfigureList>;

/** A full Tangram ID in a body, any case (upper-cased). */
const ZBindingTangramId = z
  .string()
  .trim()
  .regex(new RegExp(`^[0-9A-Fa-f]{${TANGRAM_ID_LENGTH}}$`), `${TANGRAM_ID_LENGTH} hex digits`)
  .meta({ examples: ['540001000100010000000000000001'] })
  .transform((s) => s.toUpperCase());

/** One binding: a component of the machine's configure and the device filling it, by `device_id` or `tangram_id`. */
export const ZMachineBindingInput = z
  .object({ component_id: ZId, device_id: ZId.optional(), tangram_id: ZBindingTangramId.optional() })
  .superRefine((b, ctx) => {
    if ((b.device_id === undefined) === (b.tangram_id === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['device_id'], message: 'give either device_id or tangram_id' });
    }
  });
/** {@link ZMachineBindingInput} parsed: what the server reads (defaults applied). */
export type TMachineBindingInput = z.infer<typeof ZMachineBindingInput>;

const instanceFields = {
  name: ZMachineName,
  serial_number: z.string().trim().max(MACHINE_SERIAL_MAX).default(''),
  location: z.string().trim().max(MACHINE_LOCATION_MAX).default(''),
  /** ISO 10816-3 group and foundation (machine-class.ts). */
  machine_class: z.enum(MACHINE_CLASSES).default(DEFAULT_MACHINE_CLASS),
  /**
   * The devices bound, at most one per component; a component left out stays unbound. A device appears once (it fills
   * one component of one machine).
   */
  bindings: z
    .array(ZMachineBindingInput)
    .max(MACHINE_COMPONENTS_MAX)
    .default([])
    .superRefine((bindings, ctx) => {
      refineUnique(
        bindings,
        ctx,
        (b) => b.component_id,
        (i) => [i, 'component_id'],
        'duplicate component',
      );
      refineUnique(
        bindings,
        ctx,
        (b) => (b.device_id === undefined ? undefined : `id:${b.device_id}`),
        (i) => [i, 'device_id'],
        'duplicate device',
      );
      refineUnique(
        bindings,
        ctx,
        (b) => (b.tangram_id === undefined ? undefined : `t:${b.tangram_id}`),
        (i) => [i, 'tangram_id'],
        'duplicate device',
      );
    }),
};

/** POST machine-instance: a machine of configure `configure_id`. */
export const ZMachineInstanceCreate = z.object({ configure_id: ZId, ...instanceFields });
/** {@link ZMachineInstanceCreate} parsed: what the server reads (defaults applied). */
export type TMachineInstanceCreate = z.infer<typeof ZMachineInstanceCreate>;
/** What the console's form sends before defaults apply. */
export type TMachineInstanceCreateInput = z.input<typeof ZMachineInstanceCreate>;

/** PUT machine-instance/{id}: replaces name, serial, location, class and bindings (a machine never changes configure). */
export const ZMachineInstanceUpdate = z.object(instanceFields);
/** {@link ZMachineInstanceUpdate} parsed: what the server reads (defaults applied). */
export type TMachineInstanceUpdate = z.infer<typeof ZMachineInstanceUpdate>;
/** What the console's form sends for PUT before defaults apply. */
export type TMachineInstanceUpdateInput = z.input<typeof ZMachineInstanceUpdate>;

/** `?page&limit&q&configure_id` of GET machine-instance: `q` matches name or serial number. */
export const ZMachineInstanceListQuery = ZListQuery.extend({ configure_id: ZIdText.optional() });
/** {@link ZMachineInstanceListQuery} parsed: what the server reads (defaults applied). */
export type TMachineInstanceListQuery = z.infer<typeof ZMachineInstanceListQuery>;

/** A bound device as presented (enough to label and link it). */
export const ZMachineBoundDevice = z.object({ id: z.number().int(), tangram_id: z.string(), name: z.string() });
/** The shape of {@link ZMachineBoundDevice}. */
export type TMachineBoundDevice = z.infer<typeof ZMachineBoundDevice>;

/**
 * A component of a machine with its bound device, or null when none is bound — or, for a user, when the device
 * bound is not one the user may see.
 */
export const ZMachineInstanceComponent = ZMachineComponent.extend({ device: ZMachineBoundDevice.nullable() });
/** The shape of {@link ZMachineInstanceComponent}. */
export type TMachineInstanceComponent = z.infer<typeof ZMachineInstanceComponent>;

/** A machine as presented: its configure's name and picture, and every component of the configure in order. */
export const ZMachineInstance = z.object({
  id: z.number().int(),
  configure_id: z.number().int(),
  configure_name: z.string(),
  image_url: z.string().nullable(),
  name: z.string(),
  serial_number: z.string(),
  location: z.string(),
  machine_class: z.enum(MACHINE_CLASSES),
  components: z.array(ZMachineInstanceComponent),
  created_at: z.number(),
  updated_at: z.number(),
});
/** The shape of {@link ZMachineInstance}. */
export type TMachineInstance = z.infer<typeof ZMachineInstance>;

/** GET machine-instance: a page of the machines the caller sees, by name. */
export const ZMachineInstanceList = zPage(ZMachineInstance);
/** The shape of {@link ZMachineInstanceList}. */
export type TMachineInstanceList = z.infer<typeof ZMachineInstanceList>;
