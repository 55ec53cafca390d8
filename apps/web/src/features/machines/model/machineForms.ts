/**
 * The machine forms' model (docs/decisions/machines.md): form values from a presented configure or machine and back to
 * the contracts' bodies, the contracts' rules as field messages, and the server's refusals (details naming a
 * component or a binding by index) turned into the form fields they concern. Pure, so it is unit-tested.
 */
import {
  MACHINE_COMPONENT_KEYS_MAX,
  MACHINE_COMPONENTS_MAX,
  type TErrorBody,
  type TMachineClass,
  type TMachineConfigure,
  type TMachineConfigureUpdateInput,
  type TMachineInstance,
  type TMachineInstanceUpdateInput,
  ZMachineComponentInput,
  ZMachineConfigureCreate,
  ZMachineInstanceCreate,
} from '@tessera/contracts';
import { issueMessage, type TTranslate } from '../../../lib/zodRules';

/** One component row of the configure form; `id` set for a component the configure already has. */
export interface TComponentRow {
  id?: number;
  name: string;
  product_id?: number;
  keys: string[];
}

/** The configure form's values. */
export interface TConfigureForm {
  name: string;
  description: string;
  image_url: string | null;
  components: TComponentRow[];
}

/** A new component row. */
export const EMPTY_COMPONENT: TComponentRow = { name: '', product_id: undefined, keys: [] };

/** The form values of `configure`, or of a new configure with one empty component. */
export function configureFormOf(configure: TMachineConfigure | null): TConfigureForm {
  if (!configure) return { name: '', description: '', image_url: null, components: [{ ...EMPTY_COMPONENT }] };
  return {
    name: configure.name,
    description: configure.description,
    image_url: configure.image_url,
    components: configure.components.map((c) => ({ id: c.id, name: c.name, product_id: c.product_id, keys: [...c.keys] })),
  };
}

/** The body of POST/PUT machine-configure from the form (ids kept; the server ignores them on create). */
export function configureBodyOf(form: TConfigureForm): TMachineConfigureUpdateInput {
  return {
    name: form.name,
    description: form.description ?? '',
    image_url: form.image_url ?? null,
    components: form.components.map((c) => ({ ...(c.id ? { id: c.id } : {}), name: c.name, product_id: c.product_id ?? 0, keys: c.keys })),
  };
}

/** The first message for the configure's `name` or `description`, or null when valid. */
export function configureFieldError(field: 'name' | 'description', value: unknown, t: TTranslate): string | null {
  const result = ZMachineConfigureCreate.shape[field].safeParse(value ?? '');
  return result.success ? null : issueMessage(result.error.issues[0], value, t);
}

/** The message for the list of components as a whole (how many), or null. */
export function componentsError(rows: readonly TComponentRow[] | undefined, t: TTranslate): string | null {
  const n = rows?.length ?? 0;
  if (n < 1) return t('machines.rules.componentsMin');
  if (n > MACHINE_COMPONENTS_MAX) return t('machines.rules.componentsMax', { max: MACHINE_COMPONENTS_MAX });
  return null;
}

/**
 * The message for field `field` of component row `index` among `rows`: the component schema's rules, and a name
 * another row already has (ignoring case).
 */
export function componentFieldError(
  field: 'name' | 'product_id' | 'keys',
  index: number,
  rows: readonly TComponentRow[],
  t: TTranslate,
): string | null {
  const value = rows[index]?.[field];
  if (field === 'product_id') return value ? null : t('machines.rules.product');
  if (field === 'keys') {
    const keys = (value as string[] | undefined) ?? [];
    if (keys.length < 1) return t('machines.rules.keysMin');
    if (keys.length > MACHINE_COMPONENT_KEYS_MAX) return t('machines.rules.keysMax', { max: MACHINE_COMPONENT_KEYS_MAX });
    return ZMachineComponentInput.shape.keys.safeParse(keys).success ? null : t('validation.invalid');
  }
  const result = ZMachineComponentInput.shape.name.safeParse(value ?? '');
  if (!result.success) return issueMessage(result.error.issues[0], value, t);
  const lower = result.data.toLowerCase();
  const earlier = rows.slice(0, index).some((r) => r.name?.trim().toLowerCase() === lower);
  return earlier ? t('machines.rules.componentNameTaken') : null;
}

/** The instance form's values; `devices` holds, per component id, the chosen device's Tangram ID (0 or 1 of them). */
export interface TInstanceForm {
  configure_id?: number;
  name: string;
  serial_number: string;
  location: string;
  machine_class: TMachineClass;
  devices: Record<string, string[]>;
}

/** The form values of `machine`, or of a new machine of `configureId`. */
export function instanceFormOf(machine: TMachineInstance | null, configureId?: number): TInstanceForm {
  if (!machine) return { configure_id: configureId, name: '', serial_number: '', location: '', machine_class: 'group2_rigid', devices: {} };
  return {
    configure_id: machine.configure_id,
    name: machine.name,
    serial_number: machine.serial_number,
    location: machine.location,
    machine_class: machine.machine_class,
    devices: Object.fromEntries(machine.components.map((c) => [String(c.id), c.device ? [c.device.tangram_id] : []])),
  };
}

/** The body of PUT machine-instance from the form: one binding per component of `componentIds` with a device chosen. */
export function instanceBodyOf(form: TInstanceForm, componentIds: readonly number[]): TMachineInstanceUpdateInput {
  return {
    name: form.name,
    serial_number: form.serial_number ?? '',
    location: form.location ?? '',
    machine_class: form.machine_class,
    bindings: componentIds.flatMap((id) => {
      const tangramId = form.devices?.[String(id)]?.[0];
      return tangramId ? [{ component_id: id, tangram_id: tangramId }] : [];
    }),
  };
}

/** The first message for an instance field (`name`, `serial_number`, `location`), or null when valid. */
export function instanceFieldError(field: 'name' | 'serial_number' | 'location', value: unknown, t: TTranslate): string | null {
  const result = ZMachineInstanceCreate.shape[field].safeParse(value ?? '');
  return result.success ? null : issueMessage(result.error.issues[0], value, t);
}

/** The indexes named by `details` paths `body/<list>/<i>…`, with the rest of each path (`''`, `/product_id`). */
export function indexesIn(details: TErrorBody['details'], list: string): { index: number; rest: string }[] {
  return (details ?? []).flatMap((d) => {
    const m = new RegExp(`^body/${list}/(\\d+)(.*)$`).exec(d.path);
    return m ? [{ index: Number(m[1]), rest: m[2] }] : [];
  });
}

/** The component ids of the bindings a refusal names (its details index `bindings` of the body sent). */
export function refusedComponents(details: TErrorBody['details'], body: TMachineInstanceUpdateInput): number[] {
  const bindings = body.bindings ?? [];
  return indexesIn(details, 'bindings').flatMap(({ index }) => (bindings[index] ? [bindings[index].component_id] : []));
}
