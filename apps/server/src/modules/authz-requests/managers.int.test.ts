/**
 * Managers and machine requests (spec §4 "Authorisation requests for devices, projects and machines"; §6 "manager
 * versus all visibility"; docs/decisions/authorisation.md "Managers", "Machine requests"): a user whose role includes
 * `manage_access` sees and answers the requests for what it manages, and nothing else; a machine request grants every
 * device bound to the machine and revoking takes them back.
 */
import {
  authzPaths,
  deviceRolePaths,
  machineRolePaths,
  paths,
  type TAuthzHolderList,
  type TAuthzRequest,
  type TAuthzRequestList,
  type TDevice,
  type TDeviceRegistered,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { machineBindings, machineComponents, machineConfigures, machines } from '../../db/schema.js';
import { createProjectVia, registerVia } from '../projects/catalogue.fixtures.js';

type TError = { code: string; message: string };

describe(`authorisation managers and machine requests (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let manager: TBuiltAccount;
  let asker: TBuiltAccount;
  let d: TDeviceRegistered[];
  let machineId: number;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    manager = await buildUser(server, vendor.tenantId);
    asker = await buildUser(server, vendor.tenantId);
    const projectId = (await createProjectVia(server, vendor.token, 'Managed line')).id;
    d = [];
    for (const serial of ['E1', 'E2', 'E3', 'E4']) d.push(await registerVia(server, vendor.token, projectId, serial));
    const db = server.ctx.db;
    const [configure] = await db.insert(machineConfigures).values({ tenantId: vendor.tenantId, name: 'Chiller' }).returning();
    const [component] = await db
      .insert(machineComponents)
      .values({ configureId: configure.id, name: 'Pump', productId: d[0].product_id, keys: ['vibration'], position: 0 })
      .returning();
    const [machine] = await db
      .insert(machines)
      .values({ tenantId: vendor.tenantId, configureId: configure.id, name: 'Chiller 7', serialNumber: 'CH-007' })
      .returning();
    machineId = machine.id;
    await db.insert(machineBindings).values({ machineId, componentId: component.id, deviceId: d[3].id });
    const role = await server.api('POST', deviceRolePaths.roles, {
      token: vendor.token,
      body: {
        project_id: projectId,
        name: 'Floor managers',
        permissions: ['view_telemetry', 'manage_access'],
        device_ids: [d[0].id],
        member_emails: [manager.email],
      },
    });
    expect(role.status).toBe(201);
  });
  afterAll(() => server.stop());

  const ask = (body: Record<string, unknown>, token = asker.token) =>
    server.api<TAuthzRequest & TError>('POST', authzPaths.client, { token, body });
  const decide = (id: number, decision: string, token: string) =>
    server.api<TAuthzRequest & TError>('PUT', authzPaths.request(id), { token, body: { decision } });
  const list = (token: string, query: Record<string, string> = {}) =>
    server.api<TAuthzRequestList>('GET', `${authzPaths.requests}?${new URLSearchParams(query)}`, { token });
  const visibleTo = async (token: string) =>
    (await server.api<{ data: TDevice[] }>('GET', paths.devices, { token })).body.data.map((x) => x.tangram_id).sort();

  it('a manager sees and answers requests for the devices it manages, and no others', async () => {
    const managed = await ask({ device: d[0].tangram_id });
    const unmanaged = await ask({ device: d[1].tangram_id });
    const project = await ask({ device: d[2].tangram_id, target: 'project' });
    expect([managed.status, unmanaged.status, project.status]).toEqual([201, 201, 201]);

    const seen = await list(manager.token, { scope: 'managed' });
    expect(seen.body.data.map((r) => r.id)).toEqual([managed.body.id]);
    expect((await list(manager.token, { scope: 'mine' })).body.data).toEqual([]);
    expect((await list(asker.token, { scope: 'managed' })).body.data).toEqual([]);

    expect((await decide(unmanaged.body.id, 'allow', manager.token)).status).toBe(404);
    expect((await decide(project.body.id, 'allow', manager.token)).status).toBe(404);
    const allowed = await decide(managed.body.id, 'allow', manager.token);
    expect(allowed.status).toBe(200);
    expect(allowed.body.decided_by).toBe(manager.email);
    expect(await visibleTo(asker.token)).toEqual([d[0].tangram_id]);

    const holders = await server.api<TAuthzHolderList>('GET', authzPaths.users, { token: manager.token });
    expect(holders.body.data.map((h) => h.email)).toEqual([asker.email]);
    expect((await server.api<TAuthzHolderList>('GET', authzPaths.users, { token: asker.token })).body.data).toEqual([]);
    expect((await decide(managed.body.id, 'revoke', manager.token)).status).toBe(200);
    expect(await visibleTo(asker.token)).toEqual([]);
    // The asker held the device through the request, never as a manager: it cannot answer anyone else's.
    expect((await decide(unmanaged.body.id, 'deny', asker.token)).status).toBe(403);
  });

  it('a machine request by serial number grants every device bound to the machine; revoke takes them back', async () => {
    expect((await ask({ device: 'no such machine', target: 'machine' })).status).toBe(404);
    const asked = await ask({ device: 'ch-007', target: 'machine', message: 'maintenance' });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ target: 'machine', project: null, device: null, method: 'all' });
    // The asker sees the machine's name only once the request is allowed (docs/decisions/authorisation.md).
    expect(asked.body.machine).toEqual({ id: machineId, name: '' });
    expect((await ask({ device: 'Chiller 7', target: 'machine' })).body.code).toBe('AUTHZ_STATE');
    expect((await decide(asked.body.id, 'allow', manager.token)).status, 'the device manager does not manage the machine').toBe(404);
    expect((await decide(asked.body.id, 'allow', vendor.token)).status).toBe(200);
    expect(await visibleTo(asker.token)).toEqual([d[3].tangram_id]);
    expect((await ask({ device: 'CH-007', target: 'machine' })).body.code).toBe('AUTHZ_ALREADY_GRANTED');
    expect((await decide(asked.body.id, 'revoke', vendor.token)).status).toBe(200);
    expect(await visibleTo(asker.token)).toEqual([]);
  });

  it('a machine role with manage_access makes its members managers of the machine requests', async () => {
    const role = await server.api('POST', machineRolePaths.roles, {
      token: vendor.token,
      body: { name: 'Chiller managers', permissions: ['manage_access'], machine_ids: [machineId], member_emails: [manager.email] },
    });
    expect(role.status).toBe(201);
    const asked = await ask({ device: 'CH-007', target: 'machine' });
    expect(asked.status).toBe(201);
    expect((await list(manager.token, { scope: 'managed', status: 'pending' })).body.data.map((r) => r.id)).toEqual([asked.body.id]);
    expect((await decide(asked.body.id, 'deny', manager.token)).status).toBe(200);
  });
});
