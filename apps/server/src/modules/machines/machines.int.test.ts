import {
  DESCRIPTION_MAX,
  MACHINE_COMPONENT_KEYS_MAX,
  MACHINE_COMPONENTS_MAX,
  MACHINE_NAME_MAX,
  machinePaths,
  PLAN_POLICIES,
  paths,
  type TMachineConfigure,
  type TMachineConfigureList,
  type TMachineInstance,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { machineBindings, machineComponents, tenants } from '../../db/schema.js';
import { makePng } from '../images/png.fixture.js';
import { createProductVia } from '../projects/catalogue.fixtures.js';
import { startMachineWorld, type TErrorBody, type TMachineWorld, uniqueName } from './machines.fixtures.js';

describe(`machine configures (${TEST_DB_KIND})`, () => {
  let w: TMachineWorld;
  beforeAll(async () => {
    w = await startMachineWorld();
  });
  afterAll(() => w.server.stop());

  const motor = () => ({ name: 'Motor', product_id: w.productId, keys: ['current', 'vibration'] });
  const head = () => ({ name: 'Compressor head', product_id: w.productId, keys: ['temperature'] });
  const put = (id: number, body: Record<string, unknown>, token = w.vendor.token) =>
    w.server.api<TMachineConfigure & TErrorBody>('PUT', machinePaths.configure(id), { token, body });
  const list = async (q = '') =>
    (await w.server.api<TMachineConfigureList>('GET', `${machinePaths.configures}?limit=200${q}`, { token: w.vendor.token })).body;

  describe('every route: 401 without a token, 403 for a user (configures and writes), 404 for another tenant, 2xx for the vendor', () => {
    const routes: [string, string, (c: TMachineConfigure, m: TMachineInstance) => string, ((c: TMachineConfigure) => unknown)?][] = [
      ['GET', 'machine-configure', () => machinePaths.configures],
      ['POST', 'machine-configure', () => machinePaths.configures, () => ({ name: uniqueName('Route'), components: [motor()] })],
      ['GET', 'machine-configure/{id}', (c) => machinePaths.configure(c.id)],
      ['PUT', 'machine-configure/{id}', (c) => machinePaths.configure(c.id), (c) => ({ name: c.name, components: [motor()] })],
      ['DELETE', 'machine-configure/{id}', (c) => machinePaths.configure(c.id)],
      ['POST', 'machine-instance', () => machinePaths.instances, (c) => ({ configure_id: c.id, name: uniqueName('Route machine') })],
      ['PUT', 'machine-instance/{id}', (_, m) => machinePaths.instance(m.id), () => ({ name: uniqueName('Renamed') })],
      ['DELETE', 'machine-instance/{id}', (_, m) => machinePaths.instance(m.id)],
    ];
    for (const [method, label, url, payload] of routes) {
      it(`${method} ${label}`, async () => {
        const configure = (await w.createConfigure()).body;
        const machine = (await w.createInstance({ configure_id: configure.id, name: uniqueName('Route machine') })).body;
        // DELETE machine-configure needs a configure without machines.
        const target = method === 'DELETE' && label.startsWith('machine-configure') ? (await w.createConfigure()).body : configure;
        const opts = { body: payload?.(target) };
        const m = method as 'GET';
        expect((await w.server.api<TErrorBody>(m, url(target, machine), opts)).status).toBe(401);
        expect((await w.server.api(m, url(target, machine), { ...opts, token: w.user.token })).status).toBe(403);
        if (!['GET machine-configure', 'POST machine-configure'].includes(`${method} ${label}`)) {
          const foreign = await w.server.api<TErrorBody>(m, url(target, machine), { ...opts, token: w.other.token });
          expect(foreign.status, JSON.stringify(foreign.body)).toBe(404);
          expect(foreign.body.code).toBe('NOT_FOUND');
        }
        const ok = await w.server.api(m, url(target, machine), { ...opts, token: w.vendor.token });
        expect(ok.status, JSON.stringify(ok.body)).toBe({ GET: 200, POST: 201, PUT: 200, DELETE: 204 }[method]);
      });
    }
    it('GET machine-instance and machine-instance/{id}: 401, 403 for a user without the machine section, 200 for the vendor', async () => {
      const configure = (await w.createConfigure()).body;
      const machine = (await w.createInstance({ configure_id: configure.id, name: uniqueName('Viewed') })).body;
      const stranger = await buildAccount(w.server, { level: 'user', tenantId: w.vendor.tenantId, fea: ['1', '4'] });
      for (const url of [machinePaths.instances, machinePaths.instance(machine.id)]) {
        expect((await w.server.api('GET', url)).status).toBe(401);
        expect((await w.server.api('GET', url, { token: stranger.token })).status).toBe(403);
        expect((await w.server.api('GET', url, { token: w.vendor.token })).status).toBe(200);
      }
      expect((await w.server.api('GET', machinePaths.instance(machine.id), { token: w.other.token })).status).toBe(404);
      expect((await w.server.api('GET', machinePaths.instance(machine.id), { token: w.user.token })).status).toBe(404);
    });
  });

  it('creates a configure with its components in order, reads it back, lists and searches by name', async () => {
    const name = uniqueName('空壓機');
    const res = await w.createConfigure({ name: `  ${name} `, description: 'Two-stage', components: [motor(), head()] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      name,
      description: 'Two-stage',
      image_url: null,
      instance_count: 0,
      in_use: false,
      components: [
        { name: 'Motor', product_id: w.productId, product_name: expect.any(String), keys: ['current', 'vibration'], position: 0 },
        { name: 'Compressor head', keys: ['temperature'], position: 1 },
      ],
    });
    const got = await w.server.api<TMachineConfigure>('GET', machinePaths.configure(res.body.id), { token: w.vendor.token });
    expect(got.body).toEqual(res.body);
    const found = await list(`&q=${encodeURIComponent(name)}`);
    expect(found).toMatchObject({ total_items: 1, data: [{ id: res.body.id }] });
    expect((await w.server.api<TMachineConfigureList>('GET', machinePaths.configures, { token: w.other.token })).body.total_items).toBe(0);
  });

  it('lists by name ignoring case, paged', async () => {
    const tag = uniqueName('Paged').replace(' ', '');
    for (const n of ['beta', 'Alpha', 'gamma']) expect((await w.createConfigure({ name: `${tag} ${n}` })).status).toBe(201);
    const page = async (p: number) =>
      (await w.server.api<TMachineConfigureList>('GET', `${machinePaths.configures}?q=${tag}&limit=2&page=${p}`, { token: w.vendor.token }))
        .body;
    const first = await page(1);
    expect(first).toMatchObject({ page: 1, limit: 2, total_items: 3 });
    expect(first.data.map((c) => c.name)).toEqual([`${tag} Alpha`, `${tag} beta`]);
    expect((await page(2)).data.map((c) => c.name)).toEqual([`${tag} gamma`]);
  });

  it('keeps a picture uploaded by the tenant; another tenant’s picture answers 404', async () => {
    const upload = async (token: string) => {
      const form = new FormData();
      form.append('image', new Blob([makePng()], { type: 'image/png' }), 'x.png');
      const res = await fetch(`${w.server.httpUrl}${paths.imageUpload}`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { image_url: string }).image_url;
    };
    const mine = await upload(w.vendor.token);
    expect((await w.createConfigure({ image_url: mine })).body.image_url).toBe(mine);
    const theirs = await upload(w.other.token);
    const res = await w.createConfigure({ image_url: theirs });
    expect(res.status).toBe(404);
  });

  it('names are unique per tenant ignoring case (409 CONFLICT), also on rename; another tenant may reuse one', async () => {
    const name = uniqueName('Chiller');
    const first = (await w.createConfigure({ name })).body;
    const dup = await w.createConfigure({ name: name.toUpperCase() });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'CONFLICT', message: `a machine configure named "${name.toUpperCase()}" already exists` });
    const second = (await w.createConfigure()).body;
    expect((await put(second.id, { name: name.toLowerCase(), components: [motor()] })).status).toBe(409);
    expect((await put(first.id, { name: name.toLowerCase(), components: [motor()] })).status).toBe(200);
    const otherProduct = await createProductVia(w.server, w.other.token);
    const elsewhere = await w.createConfigure({ name, components: [{ ...motor(), product_id: otherProduct.id }] }, w.other.token);
    expect(elsewhere.status).toBe(201);
  });

  describe('400 VALIDATION_FAILED at the bound and one past it, nothing written', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);
    const parts = (n: number) => Array.from({ length: n }, (_, i) => ({ ...motor(), name: `Part ${i}` }));
    const cases: [string, () => Record<string, unknown>][] = [
      [`name of ${MACHINE_NAME_MAX + 1} characters`, () => ({ name: 'n'.repeat(MACHINE_NAME_MAX + 1) })],
      ['empty name', () => ({ name: '  ' })],
      [`description of ${DESCRIPTION_MAX + 1} characters`, () => ({ description: 'd'.repeat(DESCRIPTION_MAX + 1) })],
      ['no component', () => ({ components: [] })],
      [`${MACHINE_COMPONENTS_MAX + 1} components`, () => ({ components: parts(MACHINE_COMPONENTS_MAX + 1) })],
      ['two components of one name (ignoring case)', () => ({ components: [motor(), { ...head(), name: 'MOTOR' }] })],
      ['a component without keys', () => ({ components: [{ ...motor(), keys: [] }] })],
      [
        `a component of ${MACHINE_COMPONENT_KEYS_MAX + 1} keys`,
        () => ({ components: [{ ...motor(), keys: keys(MACHINE_COMPONENT_KEYS_MAX + 1) }] }),
      ],
      ['a bad key', () => ({ components: [{ ...motor(), keys: ['no spaces'] }] })],
      ['a picture that is not an uploaded image', () => ({ image_url: 'https://example.com/a.png' })],
      ['wrong types', () => ({ components: 'all' })],
    ];
    for (const [label, extra] of cases) {
      it(label, async () => {
        const before = (await list()).total_items;
        const res = await w.createConfigure(extra());
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect((await list()).total_items).toBe(before);
      });
    }
    it(`the bounds themselves are accepted: name ${MACHINE_NAME_MAX}, ${MACHINE_COMPONENTS_MAX} components of ${MACHINE_COMPONENT_KEYS_MAX} keys`, async () => {
      const res = await w.createConfigure({
        name: '機'.repeat(MACHINE_NAME_MAX),
        description: 'd'.repeat(DESCRIPTION_MAX),
        components: parts(MACHINE_COMPONENTS_MAX).map((c) => ({ ...c, keys: keys(MACHINE_COMPONENT_KEYS_MAX) })),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.components).toHaveLength(MACHINE_COMPONENTS_MAX);
      expect((await put(res.body.id, { name: '機'.repeat(MACHINE_NAME_MAX + 1), components: [motor()] })).status).toBe(400);
    });
  });

  it('a product that is not the tenant’s answers 404 naming the component, nothing written', async () => {
    const name = uniqueName('Refused');
    const foreignProduct = await createProductVia(w.server, w.other.token);
    const res = await w.createConfigure({
      name,
      components: [motor(), { ...head(), product_id: foreignProduct.id }, { ...head(), name: 'Fan', product_id: 999_999 }],
    });
    expect(res.status).toBe(404);
    expect(res.body.details).toEqual([
      { path: 'body/components/1/product_id', message: 'product not found' },
      { path: 'body/components/2/product_id', message: 'product not found' },
    ]);
    expect((await list(`&q=${encodeURIComponent(name)}`)).total_items).toBe(0);
  });

  it('an edit keeps the ids of components it names, removes the others with their bindings, and adds new ones', async () => {
    const configure = (await w.createConfigure({ components: [motor(), head()] })).body;
    const [m, h] = configure.components;
    const machine = await w.createInstance({
      configure_id: configure.id,
      name: uniqueName('Edited'),
      bindings: [
        { component_id: m.id, device_id: w.devices[0].id },
        { component_id: h.id, device_id: w.devices[1].id },
      ],
    });
    expect(machine.status, JSON.stringify(machine.body)).toBe(201);
    // Swap the names of the two kept components, then drop the head and add a fan.
    const swapped = await put(configure.id, {
      name: configure.name,
      components: [
        { ...head(), id: h.id, name: 'Motor' },
        { ...motor(), id: m.id, name: 'Compressor head' },
      ],
    });
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    expect(swapped.body.components.map((c) => [c.id, c.name, c.position])).toEqual([
      [h.id, 'Motor', 0],
      [m.id, 'Compressor head', 1],
    ]);
    const res = await put(configure.id, {
      name: configure.name,
      components: [
        { ...motor(), id: m.id },
        { ...head(), name: 'Fan' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.components[0]).toMatchObject({ id: m.id, name: 'Motor', keys: ['current', 'vibration'] });
    expect(res.body.components[1].id).not.toBe(h.id);
    expect(res.body).toMatchObject({ instance_count: 1, in_use: true });
    expect(await w.server.ctx.db.select().from(machineComponents).where(eq(machineComponents.id, h.id))).toEqual([]);
    const instance = (await w.server.api<TMachineInstance>('GET', machinePaths.instance(machine.body.id), { token: w.vendor.token })).body;
    expect(instance.components.map((c) => [c.name, c.device?.id ?? null])).toEqual([
      ['Motor', w.devices[0].id],
      ['Fan', null],
    ]);
    // The freed device may now be bound again.
    expect(await w.server.ctx.db.select().from(machineBindings).where(eq(machineBindings.deviceId, w.devices[1].id))).toEqual([]);
    await w.server.api('DELETE', machinePaths.instance(machine.body.id), { token: w.vendor.token });
  });

  it('an edit changing a kept component’s product drops its bindings; an id of another configure answers 404', async () => {
    const configure = (await w.createConfigure()).body;
    const [m] = configure.components;
    const machine = (
      await w.createInstance({
        configure_id: configure.id,
        name: uniqueName('Reproduct'),
        bindings: [{ component_id: m.id, device_id: w.devices[2].id }],
      })
    ).body;
    const res = await put(configure.id, { name: configure.name, components: [{ ...motor(), id: m.id, product_id: w.otherProductId }] });
    expect(res.status).toBe(200);
    const instance = (await w.server.api<TMachineInstance>('GET', machinePaths.instance(machine.id), { token: w.vendor.token })).body;
    expect(instance.components).toEqual([expect.objectContaining({ id: m.id, product_id: w.otherProductId, device: null })]);
    const another = (await w.createConfigure()).body;
    const foreign = await put(configure.id, { name: configure.name, components: [{ ...motor(), id: another.components[0].id }] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.details).toEqual([{ path: 'body/components/0/id', message: 'component not found' }]);
    await w.server.api('DELETE', machinePaths.instance(machine.id), { token: w.vendor.token });
  });

  it('a configure with machines cannot be deleted (409 IN_USE naming the count); without machines it can (204), once', async () => {
    const configure = (await w.createConfigure()).body;
    const ids: number[] = [];
    for (let i = 0; i < 2; i += 1) ids.push((await w.createInstance({ configure_id: configure.id, name: uniqueName('In use') })).body.id);
    const refused = await w.server.api<TErrorBody>('DELETE', machinePaths.configure(configure.id), { token: w.vendor.token });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('IN_USE');
    expect(refused.body.message).toBe(`the machine configure "${configure.name}" is used by 2 machine(s); delete them before deleting it`);
    for (const id of ids) expect((await w.server.api('DELETE', machinePaths.instance(id), { token: w.vendor.token })).status).toBe(204);
    expect((await w.server.api('DELETE', machinePaths.configure(configure.id), { token: w.vendor.token })).status).toBe(204);
    expect((await w.server.api('DELETE', machinePaths.configure(configure.id), { token: w.vendor.token })).status).toBe(404);
    expect(await w.server.ctx.db.select().from(machineComponents).where(eq(machineComponents.configureId, configure.id))).toEqual([]);
  });

  it('a product used by a component cannot be deleted (409 IN_USE)', async () => {
    const product = await createProductVia(w.server, w.vendor.token);
    await w.createConfigure({ components: [{ ...motor(), product_id: product.id }] });
    const res = await w.server.api<TErrorBody>('DELETE', paths.product(product.id), { token: w.vendor.token });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'IN_USE', message: expect.stringContaining('1 machine component') });
  });

  it('the plan limits configures and machines: 403 PLAN_LIMIT one past the maximum, the maximum itself is allowed', async () => {
    const setPlan = (plan: 'basic' | 'standard') => w.server.ctx.db.update(tenants).set({ plan }).where(eq(tenants.id, w.other.tenantId));
    const product = await createProductVia(w.server, w.other.token);
    const body = () => ({ name: uniqueName('Planned'), components: [{ ...motor(), product_id: product.id }] });
    const max = PLAN_POLICIES.standard.machine_configures_max;
    const held = (await w.server.api<TMachineConfigureList>('GET', machinePaths.configures, { token: w.other.token })).body.total_items;
    let first: TMachineConfigure | undefined;
    for (let n = held; n < max; n += 1) {
      const res = await w.createConfigure(body(), w.other.token);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      first ??= res.body;
    }
    const refused = await w.createConfigure(body(), w.other.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'PLAN_LIMIT',
      message: expect.stringContaining(`standard plan allows at most ${max} machine configures`),
    });
    // basic has no machines at all.
    await setPlan('basic');
    expect(PLAN_POLICIES.basic.machines_max).toBe(0);
    const machine = await w.createInstance({ configure_id: first!.id, name: 'Over plan' }, w.other.token);
    expect(machine.status).toBe(403);
    expect(machine.body.code).toBe('PLAN_LIMIT');
    await setPlan('standard');
    expect((await w.createInstance({ configure_id: first!.id, name: 'Within plan' }, w.other.token)).status).toBe(201);
  });
});
