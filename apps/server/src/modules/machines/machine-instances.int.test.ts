import {
  MACHINE_LOCATION_MAX,
  MACHINE_NAME_MAX,
  MACHINE_SERIAL_MAX,
  machinePaths,
  paths,
  type TDevice,
  type TMachineConfigure,
  type TMachineInstance,
  type TMachineInstanceList,
  topics,
} from '@tessera/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { machineAuthz, machineBindings, machines, projectRoleMachines, projectRoleMembers, projectRoles } from '../../db/schema.js';
import { connectBrowser, subscribeGranted } from '../ingest/ingest-test-kit.js';
import { startMachineWorld, type TErrorBody, type TMachineWorld, uniqueName } from './machines.fixtures.js';

describe(`machine instances (${TEST_DB_KIND})`, () => {
  let w: TMachineWorld;
  let configure: TMachineConfigure;
  let motorId: number;
  let headId: number;
  beforeAll(async () => {
    w = await startMachineWorld(6);
    configure = (
      await w.createConfigure({
        name: 'Air compressor',
        components: [
          { name: 'Motor', product_id: w.productId, keys: ['current', 'vibration'] },
          { name: 'Compressor head', product_id: w.productId, keys: ['temperature', 'humidity'] },
        ],
      })
    ).body;
    [motorId, headId] = configure.components.map((c) => c.id);
  });
  afterAll(() => w.server.stop());

  const put = (id: number, body: Record<string, unknown>, token = w.vendor.token) =>
    w.server.api<TMachineInstance & TErrorBody>('PUT', machinePaths.instance(id), { token, body });
  const get = (id: number, token = w.vendor.token) =>
    w.server.api<TMachineInstance & TErrorBody>('GET', machinePaths.instance(id), { token });
  const list = async (token = w.vendor.token, q = '&limit=200') =>
    (await w.server.api<TMachineInstanceList>('GET', `${machinePaths.instances}?page=1${q}`, { token })).body;
  const count = async () => (await list()).total_items;
  const devicesOf = (m: TMachineInstance) => m.components.map((c) => [c.name, c.device?.tangram_id ?? null]);

  it('creates a machine binding devices by id and by Tangram ID (any case), and reads it back with every component', async () => {
    const res = await w.createInstance({
      configure_id: configure.id,
      name: 'Compressor #1',
      serial_number: 'AC-0001',
      location: 'Hall B',
      machine_class: 'group1_flexible',
      bindings: [
        { component_id: headId, tangram_id: w.devices[1].tangram_id.toLowerCase() },
        { component_id: motorId, device_id: w.devices[0].id },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      configure_id: configure.id,
      configure_name: 'Air compressor',
      name: 'Compressor #1',
      serial_number: 'AC-0001',
      location: 'Hall B',
      machine_class: 'group1_flexible',
      components: [
        {
          id: motorId,
          name: 'Motor',
          keys: ['current', 'vibration'],
          device: { id: w.devices[0].id, tangram_id: w.devices[0].tangram_id, name: w.devices[0].name },
        },
        { id: headId, name: 'Compressor head', keys: ['temperature', 'humidity'], device: { id: w.devices[1].id } },
      ],
    });
    expect((await get(res.body.id)).body).toEqual(res.body);
    const configures = await w.server.api<TMachineConfigure>('GET', machinePaths.configure(configure.id), { token: w.vendor.token });
    expect(configures.body).toMatchObject({ instance_count: 1, in_use: true });
  });

  it('lists by name, searches name or serial number, and filters by configure', async () => {
    const other = (await w.createConfigure()).body;
    const a = (await w.createInstance({ configure_id: other.id, name: 'zeta pump', serial_number: 'SN-4711' })).body;
    const b = (await w.createInstance({ configure_id: other.id, name: 'Alpha pump' })).body;
    expect((await list(w.vendor.token, `&configure_id=${other.id}`)).data.map((m) => m.id)).toEqual([b.id, a.id]);
    expect((await list(w.vendor.token, '&q=4711')).data.map((m) => m.id)).toEqual([a.id]);
    expect((await list(w.vendor.token, '&q=PUMP&limit=1')).data.map((m) => m.id)).toEqual([b.id]);
    expect((await list(w.other.token)).total_items).toBe(0);
    for (const m of [a, b]) await w.server.api('DELETE', machinePaths.instance(m.id), { token: w.vendor.token });
  });

  describe('bindings that cannot be written answer with the binding’s index, nothing written', () => {
    const cases: [string, () => Record<string, unknown>[], number, string, { path: string; message: string }[]][] = [
      [
        'a component of another configure: 404',
        () => [{ component_id: 999_999, device_id: w.devices[2].id }],
        404,
        'NOT_FOUND',
        [{ path: 'body/bindings/0/component_id', message: 'component not found' }],
      ],
      [
        'another tenant’s or a missing device: 404',
        () => [
          { component_id: motorId, device_id: w.devices[2].id },
          { component_id: headId, tangram_id: w.foreignDevice.tangram_id },
        ],
        404,
        'NOT_FOUND',
        [{ path: 'body/bindings/1', message: 'device not found' }],
      ],
      [
        'a missing device id: 404',
        () => [{ component_id: motorId, device_id: 999_999 }],
        404,
        'NOT_FOUND',
        [{ path: 'body/bindings/0', message: 'device not found' }],
      ],
      [
        'a device of another product: 400',
        () => [
          { component_id: motorId, device_id: w.devices[2].id },
          { component_id: headId, device_id: w.otherProductDevice.id },
        ],
        400,
        'VALIDATION_FAILED',
        [{ path: 'body/bindings/1', message: 'device is not of the component’s product' }],
      ],
      [
        'a device bound to another machine: 409',
        () => [{ component_id: motorId, device_id: w.devices[0].id }],
        409,
        'CONFLICT',
        [{ path: 'body/bindings/0', message: 'device bound to another machine' }],
      ],
      [
        'a repeated device: 400',
        () => [
          { component_id: motorId, device_id: w.devices[2].id },
          { component_id: headId, device_id: w.devices[2].id },
        ],
        400,
        'VALIDATION_FAILED',
        [{ path: 'body/bindings/1/device_id', message: 'duplicate device' }],
      ],
    ];
    for (const [label, bindings, status, code, details] of cases) {
      it(label, async () => {
        const before = await count();
        const res = await w.createInstance({ configure_id: configure.id, name: uniqueName('Refused'), bindings: bindings() as never });
        expect(res.status, JSON.stringify(res.body)).toBe(status);
        expect(res.body.code).toBe(code);
        expect(res.body.details).toEqual(details);
        expect(await count()).toBe(before);
      });
    }
    it('the conflict names the device and the machine holding it', async () => {
      const res = await w.createInstance({
        configure_id: configure.id,
        name: uniqueName('Thief'),
        bindings: [{ component_id: motorId, device_id: w.devices[0].id }],
      });
      expect(res.body.message).toBe(
        `device already bound to another machine: "${w.devices[0].name}" (${w.devices[0].tangram_id}) is bound to "Compressor #1"`,
      );
    });
  });

  it('PUT replaces fields and bindings: a device may move between components of its machine; one left out is unbound', async () => {
    const machine = (
      await w.createInstance({
        configure_id: configure.id,
        name: uniqueName('Mover'),
        bindings: [{ component_id: motorId, device_id: w.devices[2].id }],
      })
    ).body;
    const moved = await put(machine.id, {
      name: machine.name,
      serial_number: 'S-2',
      bindings: [
        { component_id: headId, device_id: w.devices[2].id },
        { component_id: motorId, device_id: w.devices[3].id },
      ],
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(devicesOf(moved.body)).toEqual([
      ['Motor', w.devices[3].tangram_id],
      ['Compressor head', w.devices[2].tangram_id],
    ]);
    expect(moved.body).toMatchObject({ serial_number: 'S-2', location: '', machine_class: 'group2_rigid', configure_id: configure.id });
    const unbound = await put(machine.id, { name: machine.name, bindings: [] });
    expect(devicesOf(unbound.body)).toEqual([
      ['Motor', null],
      ['Compressor head', null],
    ]);
    const refused = await put(machine.id, { name: machine.name, bindings: [{ component_id: motorId, device_id: w.devices[0].id }] });
    expect(refused.status).toBe(409);
    await w.server.api('DELETE', machinePaths.instance(machine.id), { token: w.vendor.token });
  });

  it("changing a machine's bindings tells its holders at once: one watching an unbound device live loses it", async () => {
    const machine = (
      await w.createInstance({
        configure_id: configure.id,
        name: uniqueName('Watched'),
        bindings: [{ component_id: motorId, device_id: w.devices[2].id }],
      })
    ).body;
    await w.server.ctx.db.insert(machineAuthz).values({ machineId: machine.id, accountId: w.user.accountId });
    const tangramId = w.devices[2].tangram_id;
    const browser = await connectBrowser(w.server.wsUrl, w.user.token);
    expect(await subscribeGranted(browser, [topics.live(tangramId), topics.liveAccess(w.user.accountId)])).toEqual([1, 1]);

    const closed = new Promise<void>((resolve) => browser.once('close', () => resolve()));
    expect((await put(machine.id, { name: machine.name, bindings: [] })).status).toBe(200);
    await closed;
    browser.end(true);
    const again = await connectBrowser(w.server.wsUrl, w.user.token);
    expect(await subscribeGranted(again, [topics.live(tangramId)])).toEqual([128]);
    await again.endAsync();
    await w.server.api('DELETE', machinePaths.instance(machine.id), { token: w.vendor.token });
  });

  it('names are unique per tenant ignoring case (409 CONFLICT), also on rename', async () => {
    const first = (await w.createInstance({ configure_id: configure.id, name: uniqueName('Dryer') })).body;
    const dup = await w.createInstance({ configure_id: configure.id, name: first.name.toUpperCase() });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'CONFLICT', message: `a machine named "${first.name.toUpperCase()}" already exists` });
    const second = (await w.createInstance({ configure_id: configure.id, name: uniqueName('Dryer') })).body;
    expect((await put(second.id, { name: first.name.toLowerCase() })).status).toBe(409);
    for (const m of [first, second]) await w.server.api('DELETE', machinePaths.instance(m.id), { token: w.vendor.token });
  });

  describe('400 VALIDATION_FAILED one past each bound; the bounds themselves are accepted', () => {
    const cases: [string, Record<string, unknown>][] = [
      [`name of ${MACHINE_NAME_MAX + 1}`, { name: 'n'.repeat(MACHINE_NAME_MAX + 1) }],
      [`serial of ${MACHINE_SERIAL_MAX + 1}`, { serial_number: 's'.repeat(MACHINE_SERIAL_MAX + 1) }],
      [`location of ${MACHINE_LOCATION_MAX + 1}`, { location: 'l'.repeat(MACHINE_LOCATION_MAX + 1) }],
      ['an unknown class', { machine_class: 'group3_rigid' }],
      ['a binding without a device', { bindings: [{ component_id: motorId }] }],
      ['no configure', { configure_id: undefined }],
    ];
    for (const [label, extra] of cases) {
      it(label, async () => {
        const before = await count();
        const res = await w.createInstance({ configure_id: configure.id, name: uniqueName('Bounded'), ...extra } as never);
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(await count()).toBe(before);
      });
    }
    it('at the bounds', async () => {
      const res = await w.createInstance({
        configure_id: configure.id,
        name: '機'.repeat(MACHINE_NAME_MAX),
        serial_number: 's'.repeat(MACHINE_SERIAL_MAX),
        location: 'l'.repeat(MACHINE_LOCATION_MAX),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await w.server.api('DELETE', machinePaths.instance(res.body.id), { token: w.vendor.token });
    });
  });

  it('deleting a machine removes its bindings and its users’ grants; its devices may be bound again', async () => {
    const machine = (
      await w.createInstance({
        configure_id: configure.id,
        name: uniqueName('Doomed'),
        bindings: [{ component_id: motorId, device_id: w.devices[4].id }],
      })
    ).body;
    await w.server.ctx.db.insert(machineAuthz).values({ machineId: machine.id, accountId: w.user.accountId });
    expect((await w.server.api('DELETE', machinePaths.instance(machine.id), { token: w.vendor.token })).status).toBe(204);
    expect(await w.server.ctx.db.select().from(machineBindings).where(eq(machineBindings.machineId, machine.id))).toEqual([]);
    expect(await w.server.ctx.db.select().from(machineAuthz).where(eq(machineAuthz.machineId, machine.id))).toEqual([]);
    expect((await get(machine.id)).status).toBe(404);
    const again = await w.createInstance({
      configure_id: configure.id,
      name: uniqueName('Reborn'),
      bindings: [{ component_id: motorId, device_id: w.devices[4].id }],
    });
    expect(again.status).toBe(201);
    await w.server.api('DELETE', machinePaths.instance(again.body.id), { token: w.vendor.token });
  });

  describe('users see the machines they hold, and of their devices only those they may see', () => {
    let held: TMachineInstance;
    let notHeld: TMachineInstance;
    beforeAll(async () => {
      held = (
        await w.createInstance({
          configure_id: configure.id,
          name: uniqueName('Held'),
          bindings: [
            { component_id: motorId, device_id: w.devices[4].id },
            { component_id: headId, device_id: w.devices[5].id },
          ],
        })
      ).body;
      notHeld = (await w.createInstance({ configure_id: configure.id, name: uniqueName('Not held') })).body;
    });
    const userSees = async (token = w.user.token) => (await list(token)).data.map((m) => m.id);

    it('a user without grants sees none, and GET of one answers 404; writes are 403', async () => {
      expect(await userSees()).toEqual([]);
      expect((await get(held.id, w.user.token)).status).toBe(404);
      expect((await put(held.id, { name: 'mine now' }, w.user.token)).status).toBe(403);
      expect((await w.server.api('DELETE', machinePaths.instance(held.id), { token: w.user.token })).status).toBe(403);
    });

    it('a machine_authz grant shows the machine and every device bound to it; taking it back hides both', async () => {
      await w.server.ctx.db.insert(machineAuthz).values({ machineId: held.id, accountId: w.user.accountId });
      expect(await userSees()).toEqual([held.id]);
      const seen = (await get(held.id, w.user.token)).body;
      const visibleDevices = async () =>
        (await w.server.api<{ data: TDevice[] }>('GET', `${paths.devices}?limit=200`, { token: w.user.token })).body.data
          .map((d) => d.tangram_id)
          .sort();
      expect(devicesOf(seen)).toEqual([
        ['Motor', w.devices[4].tangram_id],
        ['Compressor head', w.devices[5].tangram_id],
      ]);
      expect(await visibleDevices()).toEqual([w.devices[4].tangram_id, w.devices[5].tangram_id].sort());
      expect((await get(notHeld.id, w.user.token)).status).toBe(404);
      await w.server.ctx.db
        .delete(machineAuthz)
        .where(and(eq(machineAuthz.machineId, held.id), eq(machineAuthz.accountId, w.user.accountId)));
      expect(await userSees()).toEqual([]);
      expect(await visibleDevices()).toEqual([]);
    });

    it('membership of a machine role shows the role’s machines; leaving the role takes them away', async () => {
      const member = await buildUser(w.server, w.vendor.tenantId);
      const [role] = await w.server.ctx.db
        .insert(projectRoles)
        .values({
          tenantId: w.vendor.tenantId,
          kind: 'machine',
          projectId: null,
          name: uniqueName('Operators'),
          permissions: ['view_telemetry'],
          updatedAt: Date.now(),
        })
        .returning();
      await w.server.ctx.db.insert(projectRoleMachines).values({ roleId: role.id, machineId: notHeld.id });
      expect(await userSees(member.token)).toEqual([]);
      await w.server.ctx.db.insert(projectRoleMembers).values({ roleId: role.id, accountId: member.accountId });
      expect(await userSees(member.token)).toEqual([notHeld.id]);
      expect((await get(notHeld.id, member.token)).body.name).toBe(notHeld.name);
      await w.server.ctx.db.delete(projectRoleMembers).where(eq(projectRoleMembers.roleId, role.id));
      expect(await userSees(member.token)).toEqual([]);
      await w.server.ctx.db.delete(projectRoles).where(eq(projectRoles.id, role.id));
    });

    it('tenant isolation does not rest on the grants: a stray grant to another tenant’s user shows nothing', async () => {
      const outsider = await buildUser(w.server, w.other.tenantId);
      await w.server.ctx.db.insert(machineAuthz).values({ machineId: held.id, accountId: outsider.accountId });
      expect(await userSees(outsider.token)).toEqual([]);
      expect((await get(held.id, outsider.token)).status).toBe(404);
      expect(await w.server.ctx.db.select().from(machines).where(eq(machines.id, held.id))).toHaveLength(1);
    });
  });
});
