import {
  AUDIT_MASK,
  deviceClientId,
  paths,
  rulePaths,
  type TApiKeyCreated,
  type TDeviceRegistered,
  type TDeviceSecret,
  type TProduct,
  type TTokenResponse,
} from '@tessera/contracts';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount, TEST_PASSWORD, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startTwoTenants } from '../../../test/tenants.js';
import { createProductVia, createProjectVia } from '../projects/catalogue.fixtures.js';
import { auditRows, lastAudit } from './audit.fixtures.js';

describe(`audit log: what each kind of change records (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let other: TBuiltAccount;
  let built: TBuiltProject;
  beforeAll(async () => {
    ({ server, vendor, other } = await startTwoTenants({ trustProxy: ['127.0.0.1'] }));
    built = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
  });
  afterAll(() => server.stop());
  const db = () => server.ctx.db;
  const as = (token: string) => ({ token, headers: { 'x-forwarded-for': '203.0.113.7' } });

  it('records a product created, changed and deleted: who, from where, the changed fields only', async () => {
    const product = await createProductVia(server, vendor.token, 'Pump');
    const created = await lastAudit(db(), { entityType: 'product', entityId: String(product.id), action: 'create' });
    expect(created).toMatchObject({
      tenantId: vendor.tenantId,
      actorAccountId: vendor.accountId,
      actorEmail: vendor.email,
      actorVia: 'jwt',
    });
    expect(created.changes.name).toEqual({ before: null, after: 'Pump' });

    const put = await server.api<TProduct>('PUT', paths.product(product.id), { ...as(vendor.token), body: { name: 'Pump 2' } });
    expect(put.status).toBe(200);
    const updated = await lastAudit(db(), { entityType: 'product', entityId: String(product.id), action: 'update' });
    expect(updated.changes).toEqual({ name: { before: 'Pump', after: 'Pump 2' } });
    expect(updated.ip).toBe('203.0.113.7');
    expect(updated.route).toBe('PUT /frontstage/v1/products/:id');
    expect(updated.actingAdminId).toBeNull();

    expect((await server.api('DELETE', paths.product(product.id), { token: vendor.token })).status).toBe(204);
    const deleted = await lastAudit(db(), { entityType: 'product', entityId: String(product.id), action: 'delete' });
    expect(deleted.changes.name).toEqual({ before: 'Pump 2', after: null });
  });

  it('records nothing for a refused change or a read', async () => {
    const before = (await auditRows(db(), { tenantId: vendor.tenantId })).length;
    expect((await server.api('PUT', paths.product(999_999), { token: vendor.token, body: { name: 'x' } })).status).toBe(404);
    expect((await server.api('GET', paths.products, { token: vendor.token })).status).toBe(200);
    expect((await auditRows(db(), { tenantId: vendor.tenantId })).length).toBe(before);
  });

  it('records a project change and a project-settings change through their routes', async () => {
    const project = await createProjectVia(server, vendor.token);
    await server.api('PUT', paths.project(project.id), { token: vendor.token, body: { description: 'line 2' } });
    expect((await lastAudit(db(), { entityType: 'project', entityId: String(project.id), action: 'update' })).changes).toEqual({
      description: { before: '', after: 'line 2' },
    });
    const emails = { emails: ['ops@example.com'] };
    expect(
      (await server.api('PUT', `${paths.project(project.id)}/notification/emails`, { token: vendor.token, body: emails })).status,
    ).toBe(200);
    expect((await lastAudit(db(), { entityType: 'notification_emails', entityId: String(project.id) })).changes).toEqual({
      emails: { before: [], after: ['ops@example.com'] },
    });
  });

  it('records a registered device and a rotated secret without ever storing the secret', async () => {
    const project = await createProjectVia(server, vendor.token);
    const reg = await server.api<TDeviceRegistered>('POST', paths.projectDevices(project.id), {
      token: vendor.token,
      body: { serial_number: 'A1' },
    });
    expect(reg.status).toBe(201);
    const created = await lastAudit(db(), { entityType: 'device', entityId: reg.body.tangram_id, action: 'create' });
    expect(created.changes.secret_hash).toEqual({ before: null, after: AUDIT_MASK });
    const rotated = await server.api<TDeviceSecret>('POST', paths.deviceSecret(reg.body.tangram_id), { token: vendor.token });
    expect(rotated.status).toBe(200);
    const entry = await lastAudit(db(), { entityType: 'device', entityId: reg.body.tangram_id, action: 'rotate_secret' });
    expect(entry.changes).toEqual({ secret_hash: { before: AUDIT_MASK, after: AUDIT_MASK } });
    const all = JSON.stringify(await auditRows(db(), { tenantId: vendor.tenantId }));
    expect(all).not.toContain(reg.body.device_secret);
    expect(all).not.toContain(rotated.body.device_secret);
  });

  it("records a device's name and nickname changes (v1 and v2 routes), and nothing for another tenant's device", async () => {
    const { tangramId } = built.devices[0];
    const rename = await server.api('PUT', paths.device(tangramId), { ...as(vendor.token), body: { name: 'Boiler', nickname: 'b1' } });
    expect(rename.status).toBe(200);
    const renamed = await lastAudit(db(), { entityType: 'device', entityId: tangramId, action: 'update' });
    expect(renamed).toMatchObject({
      tenantId: vendor.tenantId,
      actorAccountId: vendor.accountId,
      actorEmail: vendor.email,
      ip: '203.0.113.7',
      route: 'PUT /frontstage/v1/devices/:tangramId',
    });
    expect(renamed.changes).toEqual({
      name: { before: expect.stringMatching(/^dev /), after: 'Boiler' },
      nickname: { before: '', after: 'b1' },
    });

    const v2 = await server.api('PUT', paths.deviceV2(tangramId), { token: vendor.token, body: { nickname: 'b2' } });
    expect(v2.status).toBe(200);
    const second = await lastAudit(db(), { entityType: 'device', entityId: tangramId, action: 'update' });
    expect(second.route).toBe('PUT /frontstage/v1/v2/devices/:tangramId');
    expect(second.changes).toEqual({ nickname: { before: 'b1', after: 'b2' } });

    const count = (await auditRows(db(), { entityType: 'device', entityId: tangramId })).length;
    const refused = await server.api('PUT', paths.device(tangramId), { token: other.token, body: { nickname: 'x' } });
    expect(refused.status).toBe(404);
    expect((await auditRows(db(), { entityType: 'device', entityId: tangramId })).length).toBe(count);
  });

  it('records a sensor change, a project rule, a platform rule and a role with its grants', async () => {
    const sensors = await server.api<{ data: { id: number; key: string }[] }>('GET', `/frontstage/v1/${built.projectId}/profile/sensors`, {
      token: vendor.token,
    });
    const sensor = sensors.body.data.find((s) => s.key === 'temperature') ?? sensors.body.data[0];
    expect(
      (await server.api('PUT', `/frontstage/v1/projects/profile/sensors/${sensor.id}`, { token: vendor.token, body: { unit: 'K' } }))
        .status,
    ).toBe(200);
    expect((await lastAudit(db(), { entityType: 'sensor', entityId: String(sensor.id) })).changes.unit?.after).toBe('K');

    const rule = { name: 'Overheat', key: 'temperature', op: 'gt', threshold: 30, level: 'alert', message: 'Too hot' };
    const made = await server.api<{ id: number }>('POST', rulePaths.simples(built.projectId), { token: vendor.token, body: rule });
    expect(made.status).toBe(201);
    await server.api('PUT', rulePaths.simple(built.projectId, made.body.id), { token: vendor.token, body: { threshold: 35 } });
    const changed = await lastAudit(db(), { entityType: 'simple_rule', entityId: String(made.body.id), action: 'update' });
    expect(Object.values(changed.changes).some((c) => c.before === 30 && c.after === 35)).toBe(true);

    const flow = await server.api<{ id: number }>('POST', '/rule-engine/v1/rules', { token: vendor.token, body: { name: 'Night shift' } });
    expect(flow.status).toBe(201);
    await server.api('PUT', `/rule-engine/v1/rules/${flow.body.id}`, { token: vendor.token, body: { name: 'Day shift' } });
    expect((await lastAudit(db(), { entityType: 'platform_rule', entityId: String(flow.body.id), action: 'update' })).changes.name).toEqual(
      {
        before: 'Night shift',
        after: 'Day shift',
      },
    );

    const roleBody = {
      name: 'Operators',
      permissions: ['view_telemetry'],
      device_ids: [built.devices[0].id],
      member_emails: [],
      project_id: built.projectId,
    };
    const role = await server.api<{ id: number }>('POST', '/frontstage/user/v1/project-role', { token: vendor.token, body: roleBody });
    expect(role.status).toBe(201);
    const granted = await lastAudit(db(), { entityType: 'role', entityId: String(role.body.id), action: 'create' });
    expect(granted.changes.devices).toEqual({ before: null, after: [built.devices[0].id] });
  });

  it('records a password change and a new API key with the secrets masked', async () => {
    const account = await buildAccount(server, { level: 'vendor', tenantId: vendor.tenantId });
    const body = { old_password: TEST_PASSWORD, password: 'N3w#Passw0rd', confirm_password: 'N3w#Passw0rd' };
    expect((await server.api('PUT', paths.pwd, { token: account.token, body })).status).toBeLessThan(300);
    const pwd = await lastAudit(db(), { entityType: 'account', entityId: String(account.accountId), action: 'password_change' });
    expect(pwd.changes.password_hash).toEqual({ before: AUDIT_MASK, after: AUDIT_MASK });
    const key = await server.api<TApiKeyCreated>('POST', paths.apiKeys, { token: account.token, body: { name: 'ci', expires_at: null } });
    expect(key.status).toBe(201);
    const entry = await lastAudit(db(), { entityType: 'api_key', entityId: String(key.body.id) });
    expect(entry.changes.key_hash?.after).toBe(AUDIT_MASK);
    expect(JSON.stringify(await auditRows(db(), { tenantId: vendor.tenantId }))).not.toContain(key.body.key);
  });

  it('records a change made with an API key as made by its account through the key', async () => {
    const key = await server.api<TApiKeyCreated>('POST', paths.apiKeys, { token: vendor.token, body: { name: 'robot', expires_at: null } });
    const product = await createProductVia(server, key.body.key, 'By key');
    const entry = await lastAudit(db(), { entityType: 'product', entityId: String(product.id), action: 'create' });
    expect(entry).toMatchObject({ actorAccountId: vendor.accountId, actorVia: 'api_key' });
  });

  it('records logins, good and refused, with the address and no password', async () => {
    const login = (password: string, email = vendor.email) =>
      server.api<TTokenResponse>('POST', paths.login, {
        body: { email, password, role: 'vendor' },
        headers: { 'x-forwarded-for': '198.51.100.4' },
      });
    expect((await login(TEST_PASSWORD)).status).toBe(200);
    const ok = await lastAudit(db(), { tenantId: vendor.tenantId, action: 'login' });
    expect(ok).toMatchObject({ actorAccountId: vendor.accountId, actorEmail: vendor.email, ip: '198.51.100.4', entityType: 'session' });
    expect((await login('Wrong#Pass1')).status).toBe(401);
    const refused = await lastAudit(db(), { tenantId: vendor.tenantId, action: 'login_failed' });
    expect(refused.changes.reason?.after).toBe('AUTH_WRONG_CREDENTIALS');
    expect(JSON.stringify(refused)).not.toContain('Wrong#Pass1');
    expect((await login('Wrong#Pass1', 'nobody@example.com')).status).toBe(401);
    const unknown = (await auditRows(db(), { action: 'login_failed' })).find((r) => r.actorEmail === 'nobody@example.com');
    expect(unknown).toMatchObject({ tenantId: null, actorAccountId: null });
  });

  it('records an admin acting as a vendor, and names the admin on every change made in that session', async () => {
    const admin = await buildAccount(server, { level: 'admin', fea: ['*'] });
    const switched = await server.api<TTokenResponse>('POST', paths.adminSwitch, {
      token: admin.token,
      body: { account_id: vendor.accountId },
    });
    expect(switched.status).toBe(200);
    const actAs = await lastAudit(db(), { entityType: 'account', entityId: String(vendor.accountId), action: 'act_as' });
    expect(actAs).toMatchObject({ actorAccountId: admin.accountId, tenantId: vendor.tenantId });

    const product = await createProductVia(server, switched.body.token, 'Made by admin');
    const entry = await lastAudit(db(), { entityType: 'product', entityId: String(product.id) });
    expect(entry).toMatchObject({ actorAccountId: vendor.accountId, actingAdminId: admin.accountId, actingAdminEmail: admin.email });

    // The refreshed session still names the admin.
    const refreshed = await server.api<TTokenResponse>('POST', paths.refreshToken, {
      body: { refresh_token: switched.body.refresh_token },
    });
    const again = await createProductVia(server, refreshed.body.token, 'Still the admin');
    expect((await lastAudit(db(), { entityType: 'product', entityId: String(again.id) })).actingAdminId).toBe(admin.accountId);
  });

  it('records nothing for telemetry a device publishes (ingest is not audited)', async () => {
    const before = (await auditRows(db(), {})).length;
    const { tangramId, secret } = built.devices[0];
    const client = await mqtt.connectAsync(server.mqttUrl, {
      username: tangramId,
      password: secret,
      clientId: deviceClientId(tangramId, 'audit'),
      reconnectPeriod: 0,
    });
    try {
      // QoS 1: the PUBACK comes after the batch committed.
      await client.publishAsync(`devices/${tangramId}/telemetry`, JSON.stringify([{ key: 'temperature', ts: Date.now(), vs: [21.5] }]), {
        qos: 1,
      });
    } finally {
      await client.endAsync();
    }
    expect((await auditRows(db(), {})).length).toBe(before);
  });
});
