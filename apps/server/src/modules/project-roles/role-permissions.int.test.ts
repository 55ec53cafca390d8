/**
 * Every project-role permission is checked by the routes that need it (docs/decisions/project-roles.md "What each
 * permission lets a member do"): a table of (route, permission) pairs, each driven by a member holding exactly one
 * permission — allowed with the route's permission, 403 DEVICE_PERMISSION_DENIED with any other — plus the live
 * channel, alert visibility and the device detail's `permissions`. A user authorised to the device directly may do
 * everything; a user who cannot see the device gets 404.
 */
import {
  deviceControlPaths as dc,
  ErrorCode,
  PROJECT_ROLE_PERMISSIONS,
  alertPaths,
  paths,
  profilePaths,
  topics,
  type TAlertList,
  type TDeviceDetail,
  type TProjectRolePermission,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { projectRoleDevices, projectRoleMembers, projectRoles, telemetry, telemetryKeys, telemetryLatest } from '../../db/schema.js';
import { insertAlert } from '../alerts/alerts.fixtures.js';
import { connectBrowser } from '../ingest/ingest-test-kit.js';

const T0 = Date.now() - 3_600_000;

/** One device-scoped route: how to call it and the status it answers when allowed. */
interface TRouteCase {
  name: string;
  permission: TProjectRolePermission;
  call: (token: string) => Promise<{ status: number; body: unknown }>;
  allowed: number;
}

describe(`project-role permissions on device routes (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let device: TBuiltDevice;
  let direct: TBuiltAccount;
  let stranger: TBuiltAccount;
  const members = new Map<TProjectRolePermission, TBuiltAccount>();

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    const db = server.ctx.db;
    const project = await buildDeviceProject(db, { tenantId: vendor.tenantId });
    device = project.devices[0];
    const [temperature] = await db.insert(telemetryKeys).values({ key: 'temperature' }).returning();
    await db.insert(telemetry).values({ deviceId: device.id, keyId: temperature.id, ts: T0, svcRecvTs: T0, v1: 21.5 });
    await db.insert(telemetryLatest).values({ deviceId: device.id, key: 'temperature', ts: T0, svcRecvTs: T0, v1: 21.5 });
    for (const permission of PROJECT_ROLE_PERMISSIONS) {
      const member = await buildUser(server, vendor.tenantId);
      const [role] = await db
        .insert(projectRoles)
        .values({
          tenantId: vendor.tenantId,
          projectId: project.projectId,
          name: permission,
          permissions: [permission],
          updatedAt: Date.now(),
        })
        .returning();
      await db.insert(projectRoleDevices).values({ roleId: role.id, deviceId: device.id });
      await db.insert(projectRoleMembers).values({ roleId: role.id, accountId: member.accountId });
      members.set(permission, member);
    }
    direct = await buildUser(server, vendor.tenantId);
    await authorise(db, device.id, direct.accountId);
    stranger = await buildUser(server, vendor.tenantId);
  });
  afterAll(() => server?.stop());

  const get = (url: string) => (token: string) => server.api('GET', url, { token });
  const post = (url: string, body: unknown) => (token: string) => server.api('POST', url, { token, body });
  const put = (url: string, body: unknown) => (token: string) => server.api('PUT', url, { token, body });
  const range = () => `tangramId=${device.tangramId}&key=temperature&startTs=${T0 - 60_000}&endTs=${T0 + 60_000}`;
  const rule = { name: 'hot', key: 'temperature', op: 'gt', threshold: 30 };

  const routes = (): TRouteCase[] => [
    { name: 'latest', permission: 'view_telemetry', call: get(`${paths.tsLatest}?tangramId=${device.tangramId}`), allowed: 200 },
    { name: 'profile status', permission: 'view_telemetry', call: get(profilePaths.deviceStatus(device.tangramId)), allowed: 200 },
    {
      name: 'latestN',
      permission: 'view_telemetry',
      call: get(`${paths.tsLatestN}?tangramId=${device.tangramId}&key=temperature`),
      allowed: 200,
    },
    { name: 'v2 timeseries', permission: 'view_history', call: get(`${paths.tsTimeseriesV2}?${range()}`), allowed: 200 },
    { name: 'timeseries', permission: 'view_history', call: get(`${paths.tsTimeseries}?${range()}`), allowed: 200 },
    { name: 'raw history', permission: 'view_history', call: get(`${paths.tsRawValues}?${range()}`), allowed: 200 },
    { name: 'CSV download', permission: 'download_data', call: get(`${paths.tsDownload}?${range()}`), allowed: 200 },
    // The device is offline: an allowed command gets as far as the device (409 DEVICE_OFFLINE).
    { name: 'getDeviceInfo', permission: 'control_device', call: post(dc.getDeviceInfo(device.tangramId), {}), allowed: 409 },
    {
      name: 'sensorCommand read',
      permission: 'control_device',
      call: post(dc.sensorCommand(device.tangramId), { key: 'temperature' }),
      allowed: 409,
    },
    { name: 'command log', permission: 'control_device', call: get(dc.commands(device.tangramId)), allowed: 200 },
    { name: 'app rules', permission: 'receive_alerts', call: get(dc.userRules(device.tangramId)), allowed: 200 },
    { name: 'new app rule', permission: 'receive_alerts', call: post(dc.userRules(device.tangramId), rule), allowed: 201 },
    { name: 'push switch', permission: 'receive_alerts', call: get(`${dc.fcmStatus}?tangram_id=${device.tangramId}`), allowed: 200 },
    {
      name: 'set push switch',
      permission: 'receive_alerts',
      call: put(dc.fcmStatus, { tangram_id: device.tangramId, enabled: true }),
      allowed: 200,
    },
  ];

  it('opens each route to its permission and answers 403 DEVICE_PERMISSION_DENIED to every other', async () => {
    const wrong: string[] = [];
    for (const route of routes()) {
      for (const [permission, member] of members) {
        const res = await route.call(member.token);
        const expected = permission === route.permission ? route.allowed : 403;
        if (res.status !== expected) wrong.push(`${route.name} as ${permission}: ${res.status} (expected ${expected})`);
        if (expected === 403 && (res.body as { code?: string }).code !== ErrorCode.DevicePermissionDenied) {
          wrong.push(`${route.name} as ${permission}: code ${(res.body as { code?: string }).code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets a directly authorised user do everything and tells a user who cannot see the device 404', async () => {
    for (const route of routes()) {
      expect((await route.call(direct.token)).status, route.name).toBe(route.allowed);
      expect((await route.call(stranger.token)).status, route.name).toBe(404);
    }
  });

  it('tells the console what the caller may do in the device detail', async () => {
    const detail = (token: string) => server.api<TDeviceDetail>('GET', paths.deviceV2(device.tangramId), { token });
    for (const [permission, member] of members) expect((await detail(member.token)).body.permissions).toEqual([permission]);
    expect((await detail(direct.token)).body.permissions).toEqual(PROJECT_ROLE_PERMISSIONS.filter((p) => p !== 'manage_access'));
    expect((await detail(vendor.token)).body.permissions).toEqual([...PROJECT_ROLE_PERMISSIONS]);
  });

  it('shows the device in twins, live values and alerts only with the permission that covers them', async () => {
    const alertId = await insertAlert(server.ctx.db, device.id);
    for (const [permission, member] of members) {
      const twins = await server.api<unknown[]>('GET', `${paths.tsDeviceTwins}?tangramIds=${device.tangramId}`, { token: member.token });
      expect(twins.body.length, `twins as ${permission}`).toBe(permission === 'view_telemetry' ? 1 : 0);

      const alerts = await server.api<TAlertList>('GET', alertPaths.alerts, { token: member.token });
      expect(
        alerts.body.data.some((a) => a.id === alertId),
        `alerts as ${permission}`,
      ).toBe(permission === 'receive_alerts');

      const browser = await connectBrowser(server.wsUrl, member.token);
      // A refused subscription is granted 0x80, which MQTT.js reports as a rejection.
      const granted = await browser.subscribeAsync(topics.live(device.tangramId)).then(
        ([grant]) => grant.qos !== 128,
        () => false,
      );
      await browser.endAsync();
      expect(granted, `live channel as ${permission}`).toBe(permission === 'view_telemetry');
    }
  });
});
