import {
  PROJECT_ROLE_DEVICES_MAX,
  PROJECT_ROLE_MEMBERS_MAX,
  PROJECT_ROLE_NAME_MAX,
  paths,
  projectRolePaths,
  type TDevice,
  type TDeviceRegistered,
  type TProjectRole,
  type TProjectRoleList,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise } from '../../../test/device-factory.js';
import { buildAccount, buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { createProjectVia, registerVia } from '../projects/catalogue.fixtures.js';
import { rolePermissionsOn } from './grants.js';

type TError = { code: string; message: string; details?: { path: string; message: string }[] };

describe(`project roles (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let member: TBuiltAccount;
  let bystander: TBuiltAccount;
  let other: TBuiltAccount;
  let otherUser: TBuiltAccount;
  let projectId: number;
  let d: TDeviceRegistered[];
  let elsewhere: TDeviceRegistered;
  let foreignDevice: TDeviceRegistered;
  let seq = 0;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    member = await buildUser(server, vendor.tenantId);
    bystander = await buildUser(server, vendor.tenantId);
    other = await buildVendor(server);
    otherUser = await buildUser(server, other.tenantId);
    projectId = (await createProjectVia(server, vendor.token, 'Roles project')).id;
    d = [];
    for (const serial of ['A1', 'A2', 'A3']) d.push(await registerVia(server, vendor.token, projectId, serial));
    elsewhere = await registerVia(server, vendor.token, (await createProjectVia(server, vendor.token)).id, 'E1');
    foreignDevice = await registerVia(server, other.token, (await createProjectVia(server, other.token)).id, 'F1');
  });
  afterAll(() => server.stop());

  const body = (extra: Record<string, unknown> = {}) => ({
    project_id: projectId,
    name: `Role ${++seq}`,
    permissions: ['view_telemetry'],
    device_ids: [d[0].id],
    member_emails: [] as string[],
    ...extra,
  });
  const create = (extra: Record<string, unknown> = {}, token = vendor.token) =>
    server.api<TProjectRole & TError>('POST', projectRolePaths.roles, { token, body: body(extra) });
  const update = (id: number, extra: Record<string, unknown>, token = vendor.token) => {
    const { project_id: _, ...rest } = body(extra);
    return server.api<TProjectRole & TError>('PUT', projectRolePaths.role(id), { token, body: rest });
  };
  const visibleTo = async (token: string) =>
    (await server.api<{ data: TDevice[] }>('GET', paths.devices, { token })).body.data.map((x) => x.tangram_id).sort();

  describe('every route: 401 without a token, 403 for a user, 404 for another tenant, 2xx for the vendor', () => {
    const routes: [string, string, (role: TProjectRole) => string, ((role: TProjectRole) => unknown)?][] = [
      ['GET', 'project/{id}', () => projectRolePaths.ofProject(projectId)],
      ['POST', '', () => projectRolePaths.roles, () => body()],
      ['PUT', '{id}', (r) => projectRolePaths.role(r.id), () => ({ ...body(), project_id: undefined })],
      ['DELETE', '{id}', (r) => projectRolePaths.role(r.id)],
    ];
    for (const [method, label, url, payload] of routes) {
      it(`${method} project-role/${label}`, async () => {
        const role = (await create()).body;
        const opts = { body: payload?.(role) };
        const m = method as 'GET';
        const anonymous = await server.api<TError>(m, url(role), opts);
        expect(anonymous.status).toBe(401);
        expect((await server.api(m, url(role), { ...opts, token: member.token })).status).toBe(403);
        const foreign = await server.api<TError>(m, url(role), { ...opts, token: other.token });
        expect(foreign.status, JSON.stringify(foreign.body)).toBe(404);
        expect(foreign.body.code).toBe('NOT_FOUND');
        const ok = await server.api(m, url(role), { ...opts, token: vendor.token });
        expect(ok.status, JSON.stringify(ok.body)).toBe({ GET: 200, POST: 201, PUT: 200, DELETE: 204 }[method]);
      });
    }
  });

  it('creates a role and lists it with its permissions, devices and members', async () => {
    const res = await create({
      name: '  組件廠 A  ',
      permissions: ['view_history', 'control_device'],
      device_ids: [d[1].id, d[0].id],
      member_emails: [member.email.toUpperCase()],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      project_id: projectId,
      name: '組件廠 A',
      permissions: ['view_history', 'control_device'],
      devices: [
        { id: d[0].id, tangram_id: d[0].tangram_id, name: d[0].name },
        { id: d[1].id, tangram_id: d[1].tangram_id, name: d[1].name },
      ],
      member_emails: [member.email],
      in_use: true,
    });
    const list = await server.api<TProjectRoleList>('GET', projectRolePaths.ofProject(projectId), { token: vendor.token, headers: {} });
    expect(list.body.data.find((r) => r.id === res.body.id)).toEqual(res.body);
    const searched = await server.api<TProjectRoleList>('GET', `${projectRolePaths.ofProject(projectId)}?q=組件`, { token: vendor.token });
    expect(searched.body).toMatchObject({ total_items: 1, data: [{ id: res.body.id }] });
    await update(res.body.id, { name: '組件廠 A', member_emails: [] });
  });

  it('lists by name, paged, and only the project’s roles', async () => {
    const p = await createProjectVia(server, vendor.token);
    const dev = await registerVia(server, vendor.token, p.id, 'B1');
    for (const name of ['beta', 'Alpha', 'gamma']) {
      expect((await create({ project_id: p.id, name, device_ids: [dev.id] })).status).toBe(201);
    }
    const page1 = await server.api<TProjectRoleList>('GET', `${projectRolePaths.ofProject(p.id)}?limit=2`, { token: vendor.token });
    expect(page1.body).toMatchObject({ page: 1, limit: 2, total_items: 3 });
    expect(page1.body.data.map((r) => r.name)).toEqual(['Alpha', 'beta']);
    const page2 = await server.api<TProjectRoleList>('GET', `${projectRolePaths.ofProject(p.id)}?limit=2&page=2`, { token: vendor.token });
    expect(page2.body.data.map((r) => r.name)).toEqual(['gamma']);
  });

  it('a member sees the role’s devices through GET devices; losing the member or the device takes exactly that away', async () => {
    expect(await visibleTo(member.token)).toEqual([]);
    // A direct authorisation of d[2] that no role edit may touch.
    await authorise(server.ctx.db, d[2].id, member.accountId);
    expect(await visibleTo(member.token)).toEqual([d[2].tangram_id]);

    const role = (await create({ device_ids: [d[0].id, d[2].id], member_emails: [member.email] })).body;
    expect(await visibleTo(member.token)).toEqual([d[0].tangram_id, d[2].tangram_id].sort());
    expect(await visibleTo(bystander.token)).toEqual([]);
    expect((await server.api('GET', paths.device(d[0].tangram_id), { token: member.token })).status).toBe(200);
    expect((await server.api('GET', paths.device(d[0].tangram_id), { token: bystander.token })).status).toBe(404);
    expect(await rolePermissionsOn(server.ctx.db, vendor.tenantId, member.accountId, d[0].id)).toEqual(['view_telemetry']);

    // Dropping d[2] from the role leaves the direct grant; dropping d[0] removes the role's grant.
    await update(role.id, { name: role.name, device_ids: [d[1].id], member_emails: [member.email] });
    expect(await visibleTo(member.token)).toEqual([d[1].tangram_id, d[2].tangram_id].sort());
    expect((await server.api('GET', paths.device(d[0].tangram_id), { token: member.token })).status).toBe(404);

    // Removing the member removes the role's devices and keeps the direct grant.
    await update(role.id, { name: role.name, device_ids: [d[1].id], member_emails: [] });
    expect(await visibleTo(member.token)).toEqual([d[2].tangram_id]);
    expect(await rolePermissionsOn(server.ctx.db, vendor.tenantId, member.accountId, d[1].id)).toEqual([]);

    // Two roles on one device: permissions are their union, and deleting one keeps the other's grant.
    const a = (await create({ permissions: ['view_history'], device_ids: [d[1].id], member_emails: [bystander.email] })).body;
    const b = (await create({ permissions: ['receive_alerts', 'view_history'], device_ids: [d[1].id], member_emails: [bystander.email] }))
      .body;
    expect(await rolePermissionsOn(server.ctx.db, vendor.tenantId, bystander.accountId, d[1].id)).toEqual([
      'receive_alerts',
      'view_history',
    ]);
    await update(b.id, { name: b.name, permissions: ['receive_alerts'], device_ids: [d[1].id], member_emails: [] });
    expect((await server.api('DELETE', projectRolePaths.role(b.id), { token: vendor.token })).status).toBe(204);
    expect(await visibleTo(bystander.token)).toEqual([d[1].tangram_id]);
    await update(a.id, { name: a.name, device_ids: [d[1].id], member_emails: [] });
    expect(await visibleTo(bystander.token)).toEqual([]);
  });

  it('a role in use cannot be deleted (409 IN_USE); without members it can (204), once', async () => {
    const role = (await create({ member_emails: [member.email] })).body;
    const refused = await server.api<TError>('DELETE', projectRolePaths.role(role.id), { token: vendor.token });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('IN_USE');
    expect(refused.body.message).toContain('1 member');
    const list = await server.api<TProjectRoleList>('GET', `${projectRolePaths.ofProject(projectId)}?limit=200`, { token: vendor.token });
    expect(list.body.data.some((r) => r.id === role.id)).toBe(true);

    await update(role.id, { name: role.name, member_emails: [] });
    expect((await server.api('DELETE', projectRolePaths.role(role.id), { token: vendor.token })).status).toBe(204);
    expect((await server.api('DELETE', projectRolePaths.role(role.id), { token: vendor.token })).status).toBe(404);
    expect((await server.api('PUT', projectRolePaths.role(role.id), { token: vendor.token, body: body() })).status).toBe(404);
  });

  it('names are unique per project ignoring case (409 CONFLICT), also on rename; another project may reuse one', async () => {
    const first = await create({ name: 'Field crew' });
    expect(first.status).toBe(201);
    const dup = await create({ name: 'FIELD CREW' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONFLICT');
    const second = (await create({ name: 'Night crew' })).body;
    expect((await update(second.id, { name: 'field crew' })).status).toBe(409);
    expect((await update(second.id, { name: 'Night crew' })).status).toBe(200);
    const p = await createProjectVia(server, vendor.token);
    const dev = await registerVia(server, vendor.token, p.id, 'C1');
    expect((await create({ project_id: p.id, name: 'Field crew', device_ids: [dev.id] })).status).toBe(201);
  });

  describe('400 VALIDATION_FAILED at the bound and one past it, nothing written', () => {
    const count = async () =>
      (await server.api<TProjectRoleList>('GET', projectRolePaths.ofProject(projectId), { token: vendor.token })).body.total_items;
    const cases: [string, Record<string, unknown>][] = [
      [`name of ${PROJECT_ROLE_NAME_MAX + 1} characters`, { name: 'n'.repeat(PROJECT_ROLE_NAME_MAX + 1) }],
      ['empty name', { name: '  ' }],
      ['no permission', { permissions: [] }],
      ['unknown permission', { permissions: ['root'] }],
      ['no device', { device_ids: [] }],
      [`${PROJECT_ROLE_DEVICES_MAX + 1} devices`, { device_ids: Array.from({ length: PROJECT_ROLE_DEVICES_MAX + 1 }, (_, i) => i + 1) }],
      ['a repeated device', { device_ids: [5, 5] }],
      [
        `${PROJECT_ROLE_MEMBERS_MAX + 1} members`,
        { member_emails: Array.from({ length: PROJECT_ROLE_MEMBERS_MAX + 1 }, (_, i) => `m${i}@x.io`) },
      ],
      ['a bad email', { member_emails: ['nope'] }],
      ['wrong types', { device_ids: 'all', permissions: 'view_history' }],
      ['no project', { project_id: undefined }],
    ];
    for (const [label, extra] of cases) {
      it(label, async () => {
        const before = await count();
        const res = await create(extra);
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(await count()).toBe(before);
      });
    }
    it(`a name of exactly ${PROJECT_ROLE_NAME_MAX} characters is accepted; PUT refuses one more`, async () => {
      const res = await create({ name: '名'.repeat(PROJECT_ROLE_NAME_MAX) });
      expect(res.status).toBe(201);
      const longer = await update(res.body.id, { name: '名'.repeat(PROJECT_ROLE_NAME_MAX + 1) });
      expect(longer.status).toBe(400);
      expect((await update(res.body.id, { permissions: [] })).status).toBe(400);
    });
    it('the bound of members is accepted (each checked: 404 names the unknown ones by index)', async () => {
      const emails = Array.from({ length: PROJECT_ROLE_MEMBERS_MAX }, (_, i) => `m${i}@x.io`);
      emails[0] = member.email;
      const res = await create({ member_emails: emails });
      expect(res.status).toBe(404);
      expect(res.body.details).toHaveLength(PROJECT_ROLE_MEMBERS_MAX - 1);
      expect(res.body.details?.[0]).toEqual({ path: 'body/member_emails/1', message: 'user account not found' });
    });
  });

  describe('404 for what is not the tenant’s, the project’s, or a user of the tenant (nothing written)', () => {
    const cases: [string, () => Record<string, unknown>][] = [
      ['another tenant’s project', () => ({ project_id: 999_999 })],
      ['a device of another project of the tenant', () => ({ device_ids: [d[0].id, elsewhere.id] })],
      ['another tenant’s device', () => ({ device_ids: [foreignDevice.id] })],
      ['a missing device', () => ({ device_ids: [999_999] })],
      ['a user of another tenant', () => ({ member_emails: [otherUser.email] })],
      ['a vendor account of the tenant', () => ({ member_emails: [vendor.email] })],
      ['an unknown email', () => ({ member_emails: ['nobody@example.com'] })],
    ];
    for (const [label, extra] of cases) {
      it(label, async () => {
        const name = `Refused ${++seq}`;
        const res = await create({ ...extra(), name });
        expect(res.status, JSON.stringify(res.body)).toBe(404);
        expect(res.body.code).toBe('NOT_FOUND');
        const list = await server.api<TProjectRoleList>('GET', `${projectRolePaths.ofProject(projectId)}?q=${encodeURIComponent(name)}`, {
          token: vendor.token,
        });
        expect(list.body.total_items).toBe(0);
      });
    }
    it('names the device line that is not the project’s', async () => {
      const res = await create({ device_ids: [d[0].id, elsewhere.id] });
      expect(res.body.details).toEqual([{ path: 'body/device_ids/1', message: 'device not found' }]);
    });
    it('another tenant’s vendor cannot see, change or delete the roles, and its users see none of the devices', async () => {
      const role = (await create({ member_emails: [member.email] })).body;
      expect((await update(role.id, { name: 'hijack' }, other.token)).status).toBe(404);
      expect((await server.api('DELETE', projectRolePaths.role(role.id), { token: other.token })).status).toBe(404);
      const after = await server.api<TProjectRoleList>('GET', `${projectRolePaths.ofProject(projectId)}?limit=200`, {
        token: vendor.token,
      });
      expect(after.body.data.find((r) => r.id === role.id)?.name).toBe(role.name);
      expect(await visibleTo(otherUser.token)).toEqual([]);
      await update(role.id, { name: role.name, member_emails: [] });
    });
  });

  it('an admin of another tenant is refused like a foreign vendor (404)', async () => {
    const admin = await buildAccount(server, { level: 'admin' });
    const res = await server.api('GET', projectRolePaths.ofProject(projectId), { token: admin.token });
    expect(res.status).toBe(404);
  });
});
