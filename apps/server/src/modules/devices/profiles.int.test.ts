/**
 * The profile calls and the v2 update (spec §7; docs/decisions/catalogue.md "Profiles"): a project's telemetry and
 * product profiles (vendor), a device's telemetry keys and decoded status (anyone who may see it; the status needs
 * view_telemetry), the accessible tenants, and PUT v2/devices — each with 401, 403 and another tenant's 404.
 */
import {
  paths,
  profilePaths,
  type TAccessibleTenants,
  type TDeviceDetail,
  type TDeviceStatusProfile,
  type TDeviceTelemetryProfile,
  type TProjectProductProfile,
  type TProjectTelemetryProfile,
} from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, FACTORY_SENSORS, type TBuiltProject } from '../../../test/device-factory.js';
import { buildUser, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { startTwoTenants, type TTwoTenants } from '../../../test/tenants.js';
import { devices } from '../../db/schema.js';
import { grantByRole } from '../alerts/alerts.fixtures.js';

const GROUPS = [{ name: 'Mode', index: 0, bytesLength: 2, values: [{ value: 2, label: 'Running' }] }];

describe(`profiles, accessible tenants and the v2 update (${TEST_DB_KIND})`, () => {
  let cast: TTwoTenants;
  let built: TBuiltProject;
  let tangramId: string;
  let watcher: TBuiltAccount;
  beforeAll(async () => {
    cast = await startTwoTenants();
    built = await buildDeviceProject(cast.server.ctx.db, { tenantId: cast.vendor.tenantId, count: 2, statusGroups: GROUPS });
    tangramId = built.devices[0].tangramId;
    await cast.server.ctx.db
      .update(devices)
      .set({ statusValue: 0b1110, statusTs: 1_767_225_600_000 })
      .where(eq(devices.id, built.devices[0].id));
    await authorise(cast.server.ctx.db, built.devices[0].id, cast.user.accountId);
    watcher = await buildUser(cast.server, cast.vendor.tenantId);
    await grantByRole(cast.server.ctx.db, built.devices[0].id, watcher.accountId, ['view_history']);
  });
  afterAll(() => cast?.server.stop());
  const get = <T>(url: string, token?: string) => cast.server.api<T>('GET', url, { token });

  it('answers a project telemetry profile to its vendor only', async () => {
    const url = profilePaths.projectTelemetries(built.projectId);
    expect((await get(url)).status).toBe(401);
    expect((await get(url, cast.user.token)).status).toBe(403);
    expect((await get(url, cast.other.token)).status).toBe(404);
    const res = await get<TProjectTelemetryProfile>(url, cast.vendor.token);
    expect(res.status).toBe(200);
    expect(res.body.project_id).toBe(built.projectId);
    expect(res.body.telemetries.map((t) => t.key)).toEqual(FACTORY_SENSORS.map((s) => s.key));
    expect(res.body.telemetries[2]).toMatchObject({ key: 'vibration', unit: 'mm/s', value_count: 3, enabled: true, upload_period: 1000 });
  });

  it('answers a project product profile: product, hardware module and functions', async () => {
    const url = profilePaths.projectProduct(built.projectId);
    expect((await get(url)).status).toBe(401);
    expect((await get(url, cast.user.token)).status).toBe(403);
    expect((await get(url, cast.other.token)).status).toBe(404);
    const res = await get<TProjectProductProfile>(url, cast.vendor.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      project_id: built.projectId,
      product: { name: 'Sensor box', model: 'SB' },
      functions: { alerts: true },
    });
    expect(res.body.tangram_product.model_number).toMatch(/^[0-9A-F]+$/);
  });

  it('answers a device telemetry profile to whoever may see the device', async () => {
    const url = profilePaths.deviceTelemetries(tangramId);
    expect((await get(url)).status).toBe(401);
    expect((await get(url, cast.other.token)).status).toBe(404);
    expect((await get(profilePaths.deviceTelemetries(built.devices[1].tangramId), cast.user.token)).status).toBe(404);
    for (const token of [cast.vendor.token, cast.user.token, watcher.token]) {
      const res = await get<TDeviceTelemetryProfile>(url, token);
      expect(res.status).toBe(200);
      expect(res.body.telemetries.map((t) => t.key)).toEqual(FACTORY_SENSORS.map((s) => s.key));
    }
  });

  it('decodes the device status with its project groups; a role without view_telemetry gets 403', async () => {
    const url = profilePaths.deviceStatus(tangramId);
    expect((await get(url)).status).toBe(401);
    expect((await get(url, cast.other.token)).status).toBe(404);
    expect((await get(url, watcher.token)).status).toBe(403);
    const res = await get<TDeviceStatusProfile>(url, cast.user.token);
    expect(res.status).toBe(200);
    expect(res.body.status_groups).toEqual(GROUPS);
    expect(res.body.status).toMatchObject({ value: 14, ts: 1_767_225_600_000, decoded: [{ name: 'Mode', raw: 2, label: 'Running' }] });
    const silent = await get<TDeviceStatusProfile>(profilePaths.deviceStatus(built.devices[1].tangramId), cast.vendor.token);
    expect(silent.body.status).toBeNull();
  });

  it('lists the accessible tenants (not read as a Tangram ID), with the devices each caller sees', async () => {
    expect((await get(profilePaths.accessibleTenants)).status).toBe(401);
    const forVendor = await get<TAccessibleTenants>(profilePaths.accessibleTenants, cast.vendor.token);
    expect(forVendor.status).toBe(200);
    expect(forVendor.body.data).toEqual([{ id: cast.vendor.tenantId, name: expect.any(String), device_count: 2 }]);
    const forUser = await get<TAccessibleTenants>(profilePaths.accessibleTenants, cast.user.token);
    expect(forUser.body.data).toEqual([{ id: cast.vendor.tenantId, name: expect.any(String), device_count: 1 }]);
    const forOther = await get<TAccessibleTenants>(profilePaths.accessibleTenants, cast.other.token);
    expect(forOther.body.data).toEqual([{ id: cast.other.tenantId, name: expect.any(String), device_count: 0 }]);
  });

  it('updates a device with PUT v2 and answers its detail; vendor only, tenant-scoped', async () => {
    const url = paths.deviceV2(tangramId);
    const body = { name: '冷卻泵', nickname: 'pump A' };
    expect((await cast.server.api('PUT', url, { body })).status).toBe(401);
    expect((await cast.server.api('PUT', url, { body, token: cast.user.token })).status).toBe(403);
    expect((await cast.server.api('PUT', url, { body, token: cast.other.token })).status).toBe(404);
    expect((await cast.server.api('PUT', url, { body: { name: 'x'.repeat(200) }, token: cast.vendor.token })).status).toBe(400);
    const res = await cast.server.api<TDeviceDetail>('PUT', url, { body, token: cast.vendor.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tangram_id: tangramId, name: '冷卻泵', nickname: 'pump A', status_groups: GROUPS });
    expect((await get<TDeviceDetail>(url, cast.user.token)).body.name).toBe('冷卻泵');
  });
});
