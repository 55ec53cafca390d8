import { describe, expect, it } from 'vitest';
import { DESCRIPTION_MAX } from './limits.js';
import {
  MACHINE_COMPONENT_KEYS_MAX,
  MACHINE_COMPONENTS_MAX,
  MACHINE_LOCATION_MAX,
  MACHINE_NAME_MAX,
  MACHINE_SERIAL_MAX,
  machinePaths,
  ZMachineConfigureCreate,
  ZMachineConfigureUpdate,
  ZMachineInstanceCreate,
  ZMachineInstanceListQuery,
  ZMachineInstanceUpdate,
} from './machines.js';

const component = (i = 1) => ({ name: `Part ${i}`, product_id: 1, keys: ['current'] });
const configure = { name: 'Air compressor', components: [component()] };
const parseConfigure = (extra: Record<string, unknown>) => ZMachineConfigureCreate.safeParse({ ...configure, ...extra });
const okConfigure = (extra: Record<string, unknown>) => parseConfigure(extra).success;
const TANGRAM = '54AB1201000001AB00000000000001';

describe('machine paths (§7 User API)', () => {
  it('live under /frontstage/user/v1', () => {
    expect(machinePaths.configures).toBe('/frontstage/user/v1/machine-configure');
    expect(machinePaths.configure(3)).toBe('/frontstage/user/v1/machine-configure/3');
    expect(machinePaths.instances).toBe('/frontstage/user/v1/machine-instance');
    expect(machinePaths.instance(4)).toBe('/frontstage/user/v1/machine-instance/4');
  });
});

describe('ZMachineConfigureCreate', () => {
  it(`name: 1 to ${MACHINE_NAME_MAX} characters after trimming; description up to ${DESCRIPTION_MAX}`, () => {
    expect(okConfigure({ name: '空'.repeat(MACHINE_NAME_MAX) })).toBe(true);
    expect(okConfigure({ name: '空'.repeat(MACHINE_NAME_MAX + 1) })).toBe(false);
    expect(okConfigure({ name: '  ' })).toBe(false);
    expect(ZMachineConfigureCreate.parse({ ...configure, name: '  空壓機 ' }).name).toBe('空壓機');
    expect(okConfigure({ description: 'd'.repeat(DESCRIPTION_MAX) })).toBe(true);
    expect(okConfigure({ description: 'd'.repeat(DESCRIPTION_MAX + 1) })).toBe(false);
  });

  it('defaults: empty description, no picture; a picture must be an uploaded image URL', () => {
    expect(ZMachineConfigureCreate.parse(configure)).toMatchObject({ description: '', image_url: null });
    expect(okConfigure({ image_url: '/frontstage/v1/images/AAAAAAAAAAAAAAAAAAAAAA' })).toBe(true);
    expect(okConfigure({ image_url: 'https://example.com/x.png' })).toBe(false);
  });

  it(`components: 1 to ${MACHINE_COMPONENTS_MAX}, names unique ignoring case (the repeat is named)`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => component(i));
    expect(okConfigure({ components: many(MACHINE_COMPONENTS_MAX) })).toBe(true);
    expect(okConfigure({ components: many(MACHINE_COMPONENTS_MAX + 1) })).toBe(false);
    expect(okConfigure({ components: [] })).toBe(false);
    const dup = parseConfigure({ components: [component(1), { ...component(2), name: 'PART 1' }] });
    expect(dup.error?.issues[0]).toMatchObject({ path: ['components', 1, 'name'], message: 'duplicate component name' });
  });

  it(`a component: a product id and 1 to ${MACHINE_COMPONENT_KEYS_MAX} distinct telemetry keys`, () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);
    expect(okConfigure({ components: [{ ...component(), keys: keys(MACHINE_COMPONENT_KEYS_MAX) }] })).toBe(true);
    expect(okConfigure({ components: [{ ...component(), keys: keys(MACHINE_COMPONENT_KEYS_MAX + 1) }] })).toBe(false);
    expect(okConfigure({ components: [{ ...component(), keys: [] }] })).toBe(false);
    expect(okConfigure({ components: [{ ...component(), keys: ['bad key'] }] })).toBe(false);
    expect(okConfigure({ components: [{ ...component(), product_id: 0 }] })).toBe(false);
    const dup = parseConfigure({ components: [{ ...component(), keys: ['a', 'b', 'a'] }] });
    expect(dup.error?.issues[0]).toMatchObject({ path: ['components', 0, 'keys', 2], message: 'duplicate key' });
  });

  it('drops component ids on create; PUT keeps them and refuses a repeat', () => {
    expect(ZMachineConfigureCreate.parse({ ...configure, components: [{ ...component(), id: 9 }] }).components[0]).not.toHaveProperty('id');
    expect(ZMachineConfigureUpdate.parse({ ...configure, components: [{ ...component(), id: 9 }] }).components[0].id).toBe(9);
    const dup = ZMachineConfigureUpdate.safeParse({
      ...configure,
      components: [
        { ...component(1), id: 9 },
        { ...component(2), id: 9 },
      ],
    });
    expect(dup.error?.issues[0]).toMatchObject({ path: ['components', 1, 'id'], message: 'duplicate component' });
  });
});

describe('ZMachineInstanceCreate / Update', () => {
  const instance = { configure_id: 1, name: 'Compressor #1' };
  const parse = (extra: Record<string, unknown>) => ZMachineInstanceCreate.safeParse({ ...instance, ...extra });
  const ok = (extra: Record<string, unknown>) => parse(extra).success;

  it('defaults: no serial, no location, class group2_rigid, no bindings', () => {
    expect(ZMachineInstanceCreate.parse(instance)).toEqual({
      ...instance,
      serial_number: '',
      location: '',
      machine_class: 'group2_rigid',
      bindings: [],
    });
    expect(ok({ configure_id: undefined })).toBe(false);
  });

  it(`bounds: name ${MACHINE_NAME_MAX}, serial ${MACHINE_SERIAL_MAX}, location ${MACHINE_LOCATION_MAX}; the four ISO classes`, () => {
    expect(ok({ name: 'n'.repeat(MACHINE_NAME_MAX), serial_number: 's'.repeat(MACHINE_SERIAL_MAX) })).toBe(true);
    expect(ok({ name: 'n'.repeat(MACHINE_NAME_MAX + 1) })).toBe(false);
    expect(ok({ serial_number: 's'.repeat(MACHINE_SERIAL_MAX + 1) })).toBe(false);
    expect(ok({ location: 'l'.repeat(MACHINE_LOCATION_MAX) })).toBe(true);
    expect(ok({ location: 'l'.repeat(MACHINE_LOCATION_MAX + 1) })).toBe(false);
    for (const c of ['group1_rigid', 'group1_flexible', 'group2_rigid', 'group2_flexible']) expect(ok({ machine_class: c })).toBe(true);
    expect(ok({ machine_class: 'group3' })).toBe(false);
  });

  it('a binding names its device by id or by Tangram ID (any case, upper-cased), never both or neither', () => {
    expect(ok({ bindings: [{ component_id: 1, device_id: 2 }] })).toBe(true);
    const byTangram = ZMachineInstanceCreate.parse({ ...instance, bindings: [{ component_id: 1, tangram_id: TANGRAM.toLowerCase() }] });
    expect(byTangram.bindings[0].tangram_id).toBe(TANGRAM);
    expect(ok({ bindings: [{ component_id: 1 }] })).toBe(false);
    expect(ok({ bindings: [{ component_id: 1, device_id: 2, tangram_id: TANGRAM }] })).toBe(false);
    expect(ok({ bindings: [{ component_id: 1, tangram_id: 'ABC' }] })).toBe(false);
  });

  it(`at most ${MACHINE_COMPONENTS_MAX} bindings; a component or a device appears once (the repeat is named)`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ component_id: i + 1, device_id: i + 1 }));
    expect(ok({ bindings: many(MACHINE_COMPONENTS_MAX) })).toBe(true);
    expect(ok({ bindings: many(MACHINE_COMPONENTS_MAX + 1) })).toBe(false);
    const twiceComponent = parse({
      bindings: [
        { component_id: 1, device_id: 1 },
        { component_id: 1, device_id: 2 },
      ],
    });
    expect(twiceComponent.error?.issues[0]).toMatchObject({ path: ['bindings', 1, 'component_id'], message: 'duplicate component' });
    const twiceDevice = parse({
      bindings: [
        { component_id: 1, tangram_id: TANGRAM },
        { component_id: 2, tangram_id: TANGRAM.toLowerCase() },
      ],
    });
    expect(twiceDevice.error?.issues[0]).toMatchObject({ path: ['bindings', 1, 'tangram_id'], message: 'duplicate device' });
  });

  it('PUT carries no configure (a machine never changes configure)', () => {
    expect(ZMachineInstanceUpdate.parse({ ...instance })).not.toHaveProperty('configure_id');
  });

  it('the list filters by configure id given as text', () => {
    expect(ZMachineInstanceListQuery.parse({ configure_id: '7' })).toMatchObject({ configure_id: 7, page: 1 });
    expect(ZMachineInstanceListQuery.safeParse({ configure_id: '0x7' }).success).toBe(false);
  });
});
