import {
  MACHINE_COMPONENT_KEYS_MAX,
  MACHINE_COMPONENTS_MAX,
  MACHINE_NAME_MAX,
  type TMachineConfigure,
  type TMachineInstance,
} from '@tessera/contracts';
import { describe, expect, it } from 'vitest';
import {
  componentFieldError,
  componentsError,
  configureBodyOf,
  configureFieldError,
  configureFormOf,
  instanceBodyOf,
  instanceFieldError,
  instanceFormOf,
  refusedComponents,
} from './machineForms';

const t = (key: string, options?: Record<string, string | number>) => (options ? `${key} ${JSON.stringify(options)}` : key);
const component = { id: 5, name: 'Motor', product_id: 2, product_name: 'Drive', keys: ['current'], position: 0 };
const configure: TMachineConfigure = {
  id: 1,
  name: 'Air compressor',
  description: '',
  image_url: null,
  components: [component, { ...component, id: 6, name: 'Head', keys: ['temperature'], position: 1 }],
  instance_count: 0,
  in_use: false,
  created_at: 0,
  updated_at: 0,
};

describe('configure form', () => {
  it('round-trips a configure, keeping component ids; a new form has one empty component', () => {
    expect(configureBodyOf(configureFormOf(configure))).toEqual({
      name: 'Air compressor',
      description: '',
      image_url: null,
      components: [
        { id: 5, name: 'Motor', product_id: 2, keys: ['current'] },
        { id: 6, name: 'Head', product_id: 2, keys: ['temperature'] },
      ],
    });
    const fresh = configureFormOf(null);
    expect(fresh.components).toHaveLength(1);
    expect(configureBodyOf({ ...fresh, components: [{ name: 'Fan', product_id: 3, keys: ['x'] }] }).components[0]).not.toHaveProperty('id');
  });

  it(`checks name (at most ${MACHINE_NAME_MAX}), component count, names unique ignoring case, a product and 1–${MACHINE_COMPONENT_KEYS_MAX} keys`, () => {
    expect(configureFieldError('name', '', t)).toBe('validation.required');
    expect(configureFieldError('name', 'n'.repeat(MACHINE_NAME_MAX + 1), t)).toBe(`validation.max {"max":${MACHINE_NAME_MAX}}`);
    expect(configureFieldError('name', 'Air', t)).toBeNull();
    expect(componentsError([], t)).toBe('machines.rules.componentsMin');
    expect(
      componentsError(
        Array.from({ length: MACHINE_COMPONENTS_MAX + 1 }, () => ({ name: 'x', keys: [] })),
        t,
      ),
    ).toBe(`machines.rules.componentsMax {"max":${MACHINE_COMPONENTS_MAX}}`);
    const rows = [
      { name: 'Motor', product_id: 1, keys: ['a'] },
      { name: ' MOTOR ', product_id: undefined, keys: [] },
    ];
    expect(componentFieldError('name', 0, rows, t)).toBeNull();
    expect(componentFieldError('name', 1, rows, t)).toBe('machines.rules.componentNameTaken');
    expect(componentFieldError('product_id', 1, rows, t)).toBe('machines.rules.product');
    expect(componentFieldError('keys', 1, rows, t)).toBe('machines.rules.keysMin');
    const many = [{ name: 'x', product_id: 1, keys: Array.from({ length: MACHINE_COMPONENT_KEYS_MAX + 1 }, (_, i) => `k${i}`) }];
    expect(componentFieldError('keys', 0, many, t)).toBe(`machines.rules.keysMax {"max":${MACHINE_COMPONENT_KEYS_MAX}}`);
  });
});

describe('instance form', () => {
  const machine: TMachineInstance = {
    id: 9,
    configure_id: 1,
    configure_name: 'Air compressor',
    image_url: null,
    name: 'Compressor #1',
    serial_number: 'S1',
    location: 'Hall',
    machine_class: 'group1_rigid',
    components: [
      { ...component, device: { id: 3, tangram_id: 'T3', name: 'Motor A' } },
      { ...component, id: 6, name: 'Head', device: null },
    ],
    created_at: 0,
    updated_at: 0,
  };

  it('round-trips a machine: one binding per component with a device, by Tangram ID', () => {
    const form = instanceFormOf(machine);
    expect(form.devices).toEqual({ 5: ['T3'], 6: [] });
    expect(instanceBodyOf(form, [5, 6])).toEqual({
      name: 'Compressor #1',
      serial_number: 'S1',
      location: 'Hall',
      machine_class: 'group1_rigid',
      bindings: [{ component_id: 5, tangram_id: 'T3' }],
    });
    expect(instanceFormOf(null, 4)).toMatchObject({ configure_id: 4, machine_class: 'group2_rigid', devices: {} });
  });

  it('checks the text fields with the contracts’ bounds', () => {
    expect(instanceFieldError('name', '', t)).toBe('validation.required');
    expect(instanceFieldError('serial_number', '', t)).toBeNull();
    expect(instanceFieldError('location', 'l'.repeat(65), t)).toBe('validation.max {"max":64}');
  });

  it('maps a refusal’s binding indexes back to the components', () => {
    const body = instanceBodyOf({ ...instanceFormOf(machine), devices: { 5: ['T3'], 6: ['T4'] } }, [5, 6]);
    expect(refusedComponents([{ path: 'body/bindings/1', message: 'device not found' }], body)).toEqual([6]);
    expect(
      refusedComponents(
        [
          { path: 'body/bindings/0/component_id', message: 'x' },
          { path: 'body/name', message: 'y' },
        ],
        body,
      ),
    ).toEqual([5]);
    expect(refusedComponents(undefined, body)).toEqual([]);
  });
});
