/**
 * The one permission function against a reference model (spec §6; docs/decisions/roles.md "One permission
 * function"): fast-check draws a world of roles of every kind (project, device, machine: permissions, devices or
 * machines, members) and direct grants (device, project and machine requests allowed), and for every (principal,
 * permission, device) the server's answer — `findVisibleDevice` (what every device route's `deviceFor` and the live
 * channel's subscribe ACL and revocation ask) and `devicePermissions` (what the device detail tells the console) —
 * must equal the table the model computes in plain TypeScript. Explicit cases pin the rules a reader checks by eye.
 */
import { PROJECT_ROLE_PERMISSIONS, type TDeviceRegistered, type TProjectRolePermission, type TRoleKind } from '@tessera/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import type { TPrincipal } from '../../core/principal.js';
import {
  deviceAuthz,
  machineAuthz,
  machineBindings,
  machineComponents,
  machineConfigures,
  machines,
  projectAuthz,
  projectRoleDevices,
  projectRoleMachines,
  projectRoleMembers,
  projectRoles,
} from '../../db/schema.js';
import { devicePermissions, findVisibleDevice } from '../devices/access.js';
import { createProjectVia, registerVia } from '../projects/catalogue.fixtures.js';

const USERS = 3;
const PERMISSIONS = PROJECT_ROLE_PERMISSIONS;

/** A role of the drawn world: devices by index (project and device roles) or machines by index (machine roles). */
interface TWorldRole {
  kind: TRoleKind;
  project: number;
  permissions: TProjectRolePermission[];
  devices: number[];
  machines: number[];
  members: number[];
}

/** A drawn world: roles and direct grants, accounts and targets by index. */
interface TWorld {
  roles: TWorldRole[];
  deviceGrants: [user: number, device: number][];
  projectGrants: [user: number, project: number][];
  machineGrants: [user: number, machine: number][];
}

/**
 * The fixed catalogue: project 0 holds devices 0 and 1, project 1 devices 2 and 3; machine 0 binds device 3 and
 * machine 1 device 1. Device 4 is another tenant's.
 */
const PROJECT_OF = [0, 0, 1, 1];
const MACHINE_DEVICES = [[3], [1]];

const subsetOf = (n: number, min = 0) => fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: min, maxLength: n });
const permissionSet = fc.uniqueArray(fc.constantFrom(...PERMISSIONS), { minLength: 1, maxLength: PERMISSIONS.length });
const projectRole = (kind: 'project' | 'device') =>
  fc.integer({ min: 0, max: 1 }).chain((project) =>
    fc.record({
      kind: fc.constant<TRoleKind>(kind),
      project: fc.constant(project),
      permissions: permissionSet,
      devices: fc.uniqueArray(fc.constantFrom(...[0, 1, 2, 3].filter((d) => PROJECT_OF[d] === project)), { minLength: 1 }),
      machines: fc.constant<number[]>([]),
      members: subsetOf(USERS),
    }),
  );
const machineRole = fc.record({
  kind: fc.constant<TRoleKind>('machine'),
  project: fc.constant<number>(-1),
  permissions: permissionSet,
  devices: fc.constant<number[]>([]),
  machines: subsetOf(2, 1),
  members: subsetOf(USERS),
});
const pairs = (a: number, b: number) =>
  fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: a - 1 }), fc.integer({ min: 0, max: b - 1 })), {
    selector: ([x, y]) => `${x}:${y}`,
    maxLength: 3,
  });
const worlds: fc.Arbitrary<TWorld> = fc.record({
  roles: fc.array(fc.oneof(projectRole('project'), projectRole('device'), machineRole), { maxLength: 4 }),
  deviceGrants: pairs(USERS, 4),
  projectGrants: pairs(USERS, 2),
  machineGrants: pairs(USERS, 2),
});

/** The devices (indexes) a role holds. */
const roleDevices = (r: TWorldRole) => (r.kind === 'machine' ? r.machines.flatMap((m) => MACHINE_DEVICES[m]) : r.devices);

/** The reference model: the permissions user `u` holds on device `d` (null: it does not see it). */
function modelPermissions(world: TWorld, u: number, d: number): Set<TProjectRolePermission> | null {
  if (d >= PROJECT_OF.length) return null;
  const direct =
    world.deviceGrants.some(([x, y]) => x === u && y === d) ||
    world.projectGrants.some(([x, p]) => x === u && p === PROJECT_OF[d]) ||
    world.machineGrants.some(([x, m]) => x === u && MACHINE_DEVICES[m].includes(d));
  const roles = world.roles.filter((r) => r.members.includes(u) && roleDevices(r).includes(d));
  if (!direct && roles.length === 0) return null;
  const held = new Set<TProjectRolePermission>(roles.flatMap((r) => r.permissions));
  if (direct) for (const p of PERMISSIONS) if (p !== 'manage_access') held.add(p);
  return held;
}

describe(`the permission function against its table (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let users: TBuiltAccount[];
  let stranger: TBuiltAccount;
  let projectIds: number[];
  let devices: TDeviceRegistered[];
  let machineIds: number[];

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    users = [];
    for (let i = 0; i < USERS; i++) users.push(await buildUser(server, vendor.tenantId));
    const otherVendor = await buildVendor(server);
    stranger = await buildUser(server, otherVendor.tenantId);
    projectIds = [(await createProjectVia(server, vendor.token)).id, (await createProjectVia(server, vendor.token)).id];
    devices = [];
    for (const [i, project] of PROJECT_OF.entries()) devices.push(await registerVia(server, vendor.token, projectIds[project], `D00${i}`));
    devices.push(await registerVia(server, otherVendor.token, (await createProjectVia(server, otherVendor.token)).id, 'F001'));
    const db = server.ctx.db;
    const [configure] = await db.insert(machineConfigures).values({ tenantId: vendor.tenantId, name: 'Press' }).returning();
    const [component] = await db
      .insert(machineComponents)
      .values({ configureId: configure.id, name: 'Motor', productId: devices[0].product_id, keys: ['vibration'], position: 0 })
      .returning();
    machineIds = [];
    for (const [m, bound] of MACHINE_DEVICES.entries()) {
      const [machine] = await db
        .insert(machines)
        .values({ tenantId: vendor.tenantId, configureId: configure.id, name: `Press ${m}` })
        .returning();
      machineIds.push(machine.id);
      for (const d of bound)
        await db.insert(machineBindings).values({ machineId: machine.id, componentId: component.id, deviceId: devices[d].id });
    }
  });
  afterAll(() => server.stop());

  const principalOf = (a: TBuiltAccount): TPrincipal => ({
    accountId: a.accountId,
    tenantId: a.tenantId,
    email: a.email,
    level: a.level,
    fea: [],
    via: 'jwt',
  });

  /** Replaces the tenant's roles and grants with `world`'s. */
  async function install(world: TWorld): Promise<void> {
    const db = server.ctx.db;
    await db.delete(projectRoles);
    await db.delete(deviceAuthz);
    await db.delete(projectAuthz);
    await db.delete(machineAuthz);
    for (const [i, r] of world.roles.entries()) {
      const [role] = await db
        .insert(projectRoles)
        .values({
          tenantId: vendor.tenantId,
          kind: r.kind,
          projectId: r.kind === 'machine' ? null : projectIds[r.project],
          name: `role ${i}`,
          permissions: r.permissions,
          updatedAt: Date.now(),
        })
        .returning();
      if (r.devices.length)
        await db.insert(projectRoleDevices).values(r.devices.map((d) => ({ roleId: role.id, deviceId: devices[d].id })));
      if (r.machines.length) {
        await db.insert(projectRoleMachines).values(r.machines.map((m) => ({ roleId: role.id, machineId: machineIds[m] })));
      }
      if (r.members.length)
        await db.insert(projectRoleMembers).values(r.members.map((u) => ({ roleId: role.id, accountId: users[u].accountId })));
    }
    for (const [u, d] of world.deviceGrants)
      await db.insert(deviceAuthz).values({ accountId: users[u].accountId, deviceId: devices[d].id });
    for (const [u, p] of world.projectGrants)
      await db.insert(projectAuthz).values({ accountId: users[u].accountId, projectId: projectIds[p] });
    for (const [u, m] of world.machineGrants)
      await db.insert(machineAuthz).values({ accountId: users[u].accountId, machineId: machineIds[m] });
  }

  /** Every (principal, device, permission) the server answers differently from `expected`; empty when they agree. */
  async function disagreements(expected: (who: number, d: number) => Set<TProjectRolePermission> | null): Promise<string[]> {
    const db = server.ctx.db;
    const out: string[] = [];
    // who: 0..USERS-1 the tenant's users, USERS the vendor, USERS + 1 another tenant's user.
    const accounts = [...users, vendor, stranger];
    for (const [who, account] of accounts.entries()) {
      const principal = principalOf(account);
      for (const [d, device] of devices.entries()) {
        const want = expected(who, d);
        const seen = (await findVisibleDevice(db, principal, device.tangram_id)) !== null;
        if (seen !== (want !== null)) out.push(`account ${who} sees device ${d}: ${seen}, expected ${want !== null}`);
        for (const permission of PERMISSIONS) {
          const granted = (await findVisibleDevice(db, principal, device.tangram_id, permission)) !== null;
          if (granted !== (want?.has(permission) ?? false)) out.push(`account ${who} ${permission} on device ${d}: ${granted}`);
        }
        if (want !== null) {
          const listed = await devicePermissions(db, principal, device.id);
          if ([...listed].sort().join() !== [...want].sort().join())
            out.push(`account ${who} detail permissions on ${d}: ${listed.join()}`);
        }
      }
    }
    return out;
  }

  /** The model's answer for account index `who` (users by index, then the vendor, then the stranger). */
  const modelFor = (world: TWorld) => (who: number, d: number) => {
    if (who === USERS) return d < PROJECT_OF.length ? new Set(PERMISSIONS) : null;
    if (who === USERS + 1) return null;
    return modelPermissions(world, who, d);
  };

  it('pins the rules: a direct grant gives all but manage_access; a machine role reaches bound devices only; tenants never mix', async () => {
    const world: TWorld = {
      roles: [
        { kind: 'machine', project: -1, permissions: ['view_history', 'manage_access'], devices: [], machines: [0], members: [1] },
        { kind: 'device', project: 0, permissions: ['control_device'], devices: [0], machines: [], members: [2] },
      ],
      deviceGrants: [[0, 2]],
      projectGrants: [],
      machineGrants: [[2, 1]],
    };
    await install(world);
    const model = modelFor(world);
    expect(model(0, 2)).toEqual(new Set(PERMISSIONS.filter((p) => p !== 'manage_access')));
    expect(model(1, 3)).toEqual(new Set(['view_history', 'manage_access']));
    expect(model(1, 2)).toBeNull();
    expect(model(2, 1)?.has('manage_access')).toBe(false);
    expect(model(2, 0)).toEqual(new Set(['control_device']));
    expect(await disagreements(model)).toEqual([]);
  });

  it('agrees with the reference model on drawn worlds of roles of every kind and direct grants', async () => {
    await fc.assert(
      fc.asyncProperty(worlds, async (world) => {
        await install(world);
        expect(await disagreements(modelFor(world))).toEqual([]);
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
