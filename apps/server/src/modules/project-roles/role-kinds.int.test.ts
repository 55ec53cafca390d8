/**
 * Device roles, machine roles and the plan (spec §6 "Device roles (regular users), project roles (component makers)
 * and machine roles; a role in use cannot be deleted"; §7 device-role, machine role, `GET authz/package-policy`;
 * docs/decisions/roles.md): 401/403/200 on every new route, kinds kept apart, tenant isolation, in use, plan limits,
 * and a machine role's members seeing the devices bound to its machines.
 */
import {
  deviceRolePaths,
  machineRolePaths,
  PLAN_POLICIES,
  packagePolicyPath,
  paths,
  projectRolePaths,
  type TDevice,
  type TDeviceRegistered,
  type TPackagePolicy,
  type TProjectRole,
  type TProjectRoleList,
  topics,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { connectBrowser, subscribeGranted, waitUntil } from '../ingest/ingest-test-kit.js';
import { machineBindings, machineComponents, machineConfigures, machines, tenants } from '../../db/schema.js';
import { createProjectVia, registerVia } from '../projects/catalogue.fixtures.js';

type TError = { code: string; message: string; details?: { path: string }[] };

describe(`device roles, machine roles and the plan (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let member: TBuiltAccount;
  let other: TBuiltAccount;
  let projectId: number;
  let d: TDeviceRegistered[];
  let machineId: number;
  let foreignMachineId: number;
  let seq = 0;

  /** A machine of `tenantId` named `name` binding `deviceIds` (rows written directly: the machine routes have their own tests). */
  async function machineOf(tenantId: number, name: string, productId: number, deviceIds: number[]): Promise<number> {
    const db = server.ctx.db;
    const [configure] = await db
      .insert(machineConfigures)
      .values({ tenantId, name: `${name} kind` })
      .returning();
    const [machine] = await db
      .insert(machines)
      .values({ tenantId, configureId: configure.id, name, serialNumber: `SN-${name}` })
      .returning();
    for (const [i, deviceId] of deviceIds.entries()) {
      const [component] = await db
        .insert(machineComponents)
        .values({ configureId: configure.id, name: `part ${i}`, productId, keys: ['vibration'], position: i })
        .returning();
      await db.insert(machineBindings).values({ machineId: machine.id, componentId: component.id, deviceId });
    }
    return machine.id;
  }

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    member = await buildUser(server, vendor.tenantId);
    other = await buildVendor(server);
    projectId = (await createProjectVia(server, vendor.token, 'Kinds project')).id;
    d = [];
    for (const serial of ['C1', 'C2', 'C3']) d.push(await registerVia(server, vendor.token, projectId, serial));
    machineId = await machineOf(vendor.tenantId, 'Compressor', d[0].product_id, [d[2].id]);
    const foreign = await registerVia(server, other.token, (await createProjectVia(server, other.token)).id, 'F1');
    foreignMachineId = await machineOf(other.tenantId, 'Foreign', foreign.product_id, [foreign.id]);
  });
  afterAll(() => server.stop());

  const deviceRole = (extra: Record<string, unknown> = {}, token = vendor.token) =>
    server.api<TProjectRole & TError>('POST', deviceRolePaths.roles, {
      token,
      body: {
        project_id: projectId,
        name: `Device role ${++seq}`,
        permissions: ['view_telemetry'],
        device_ids: [d[0].id],
        member_emails: [],
        ...extra,
      },
    });
  const machineRole = (extra: Record<string, unknown> = {}, token = vendor.token) =>
    server.api<TProjectRole & TError>('POST', machineRolePaths.roles, {
      token,
      body: { name: `Machine role ${++seq}`, permissions: ['view_telemetry'], machine_ids: [machineId], member_emails: [], ...extra },
    });
  const visibleTo = async (token: string) =>
    (await server.api<{ data: TDevice[] }>('GET', paths.devices, { token })).body.data.map((x) => x.tangram_id).sort();

  it('answers 401 without a token and 403 to a user on every role route', async () => {
    const devices = { name: 'R', permissions: ['view_telemetry'], device_ids: [d[0].id], member_emails: [] };
    const machinesBody = { name: 'R', permissions: ['view_telemetry'], machine_ids: [machineId], member_emails: [] };
    const routes: [string, string, unknown?][] = [
      ['GET', deviceRolePaths.ofProject(projectId)],
      ['POST', deviceRolePaths.roles, { ...devices, project_id: projectId }],
      ['PUT', deviceRolePaths.role(1), devices],
      ['DELETE', deviceRolePaths.role(1)],
      ['GET', machineRolePaths.roles],
      ['POST', machineRolePaths.roles, machinesBody],
      ['PUT', machineRolePaths.role(1), machinesBody],
      ['DELETE', machineRolePaths.role(1)],
    ];
    for (const [method, path, body] of routes) {
      expect((await server.api(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect((await server.api(method, path, { token: member.token, body })).status, `${method} ${path}`).toBe(403);
    }
  });

  it('a device role is a role of its own kind: listed apart from project roles, unreachable by their paths', async () => {
    const created = await deviceRole({ name: 'Night shift', permissions: ['view_telemetry', 'manage_access'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'device', project_id: projectId, machines: [], in_use: false });
    const same = await server.api<TProjectRole>('POST', projectRolePaths.roles, {
      token: vendor.token,
      body: { project_id: projectId, name: 'Night shift', permissions: ['view_telemetry'], device_ids: [d[0].id], member_emails: [] },
    });
    expect(same.status, 'the same name in another kind is fine').toBe(201);
    expect((await deviceRole({ name: 'NIGHT SHIFT' })).status).toBe(409);
    const list = await server.api<TProjectRoleList>('GET', deviceRolePaths.ofProject(projectId), { token: vendor.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((r) => r.kind)).toEqual(list.body.data.map(() => 'device'));
    expect((await server.api('DELETE', projectRolePaths.role(created.body.id), { token: vendor.token })).status).toBe(404);
    expect((await server.api('PUT', deviceRolePaths.role(same.body.id), { token: vendor.token, body: {} })).status).toBe(400);
    const put = await server.api<TProjectRole>('PUT', deviceRolePaths.role(same.body.id), {
      token: vendor.token,
      body: { name: 'x', permissions: ['view_telemetry'], device_ids: [d[0].id], member_emails: [] },
    });
    expect(put.status).toBe(404);
    expect((await server.api('DELETE', deviceRolePaths.role(created.body.id), { token: other.token })).status).toBe(404);
    expect((await server.api('DELETE', deviceRolePaths.role(created.body.id), { token: vendor.token })).status).toBe(204);
  });

  it('a machine role gives its members the devices bound to its machines; in use it cannot be deleted', async () => {
    expect(await visibleTo(member.token)).toEqual([]);
    const created = await machineRole({ member_emails: [member.email] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'machine', project_id: null, devices: [], in_use: true });
    expect(created.body.machines).toEqual([{ id: machineId, name: 'Compressor' }]);
    expect(await visibleTo(member.token)).toEqual([d[2].tangram_id]);
    const refused = await server.api<TError>('DELETE', machineRolePaths.role(created.body.id), { token: vendor.token });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('IN_USE');
    const emptied = await server.api<TProjectRole>('PUT', machineRolePaths.role(created.body.id), {
      token: vendor.token,
      body: { name: created.body.name, permissions: ['view_telemetry'], machine_ids: [machineId], member_emails: [] },
    });
    expect(emptied.status).toBe(200);
    expect(await visibleTo(member.token)).toEqual([]);
    const list = await server.api<TProjectRoleList>('GET', machineRolePaths.roles, { token: vendor.token });
    expect(list.body.data.map((r) => r.id)).toContain(created.body.id);
    expect((await server.api<TProjectRoleList>('GET', machineRolePaths.roles, { token: other.token })).body.data).toEqual([]);
    expect((await server.api('DELETE', machineRolePaths.role(created.body.id), { token: vendor.token })).status).toBe(204);
  });

  it('tells members added to or removed from a role on their live access channel; a removed one loses its live device', async () => {
    const leaver = await buildUser(server, vendor.tenantId);
    const browser = await connectBrowser(server.wsUrl, leaver.token);
    const received: string[] = [];
    browser.on('message', (topic) => received.push(topic));
    expect(await subscribeGranted(browser, [topics.liveAccess(leaver.accountId), topics.live(d[1].tangram_id)])).toEqual([1, 128]);

    const role = await deviceRole({ device_ids: [d[1].id], member_emails: [leaver.email] });
    expect(role.status).toBe(201);
    await waitUntil(() => received.includes(topics.liveAccess(leaver.accountId)));
    expect(await subscribeGranted(browser, [topics.live(d[1].tangram_id)])).toEqual([1]);

    const closed = new Promise<void>((resolve) => browser.once('close', () => resolve()));
    const put = await server.api('PUT', deviceRolePaths.role(role.body.id), {
      token: vendor.token,
      body: { name: role.body.name, permissions: ['view_telemetry'], device_ids: [d[1].id], member_emails: [] },
    });
    expect(put.status).toBe(200);
    // The replica closes the browser connection still watching the device the account lost.
    await closed;
    browser.end(true);
    const again = await connectBrowser(server.wsUrl, leaver.token);
    expect(await subscribeGranted(again, [topics.live(d[1].tangram_id)])).toEqual([128]);
    await again.endAsync();
  });

  it("refuses another tenant's machine (404 naming it) and an empty machine list (400)", async () => {
    const foreign = await machineRole({ machine_ids: [machineId, foreignMachineId] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.details?.map((x) => x.path)).toEqual(['body/machine_ids/1']);
    expect((await machineRole({ machine_ids: [] })).status).toBe(400);
    expect((await machineRole({ machine_ids: [2 ** 31] })).status).toBe(400);
  });

  it('GET authz/package-policy tells every account of the tenant its plan, limits and usage', async () => {
    expect((await server.api('GET', packagePolicyPath)).status).toBe(401);
    const policy = await server.api<TPackagePolicy>('GET', packagePolicyPath, { token: member.token });
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({
      plan: 'standard',
      roles_max: PLAN_POLICIES.standard.roles_max,
      role_kinds: ['project', 'device', 'machine'],
    });
    expect(policy.body.usage.machines).toBe(1);
    expect(policy.body.features).toContain('6');
  });

  it('a basic plan refuses machine roles, and every plan refuses a role past its limit (403 PLAN_LIMIT)', async () => {
    const db = server.ctx.db;
    await db.update(tenants).set({ plan: 'basic' }).where(eq(tenants.id, vendor.tenantId));
    try {
      const refused = await machineRole();
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('PLAN_LIMIT');
      const policy = await server.api<TPackagePolicy>('GET', packagePolicyPath, { token: vendor.token });
      expect(policy.body.role_kinds).toEqual(['project', 'device']);
      const held = policy.body.usage.roles;
      for (let i = held; i < PLAN_POLICIES.basic.roles_max; i++) expect((await deviceRole()).status).toBe(201);
      const full = await deviceRole();
      expect(full.status).toBe(403);
      expect(full.body.code).toBe('PLAN_LIMIT');
    } finally {
      await db.update(tenants).set({ plan: 'standard' }).where(eq(tenants.id, vendor.tenantId));
    }
  });
});
