/**
 * GET devices/{tangramId}/motor-health against a real database: access (401, 404 across tenants, 403 without
 * view_history), the zone of the latest reading, the series and the hours per zone for stored telemetry — from the
 * chart's buckets on a short range and from 1-min rollups on a long one — and a device bound to a group-1 machine
 * judged by the group-1 boundaries.
 */
import { DAY_MS, ErrorCode, motorHealthPath, type TMotorHealth } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { machineBindings, machineComponents, machineConfigures, machines } from '../../db/schema.js';
import { grantByRole } from '../alerts/alerts.fixtures.js';
import { writeIngestBatch } from '../telemetry/write.js';

const MIN = 60_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 1);
/** Worst-axis velocity (mm/s) of minute i of the two stored hours: 60 min at 1.0, 30 at 2.0, 20 at 3.0, 10 at 5.0. */
const velocityAt = (i: number) => (i < 60 ? 1 : i < 90 ? 2 : i < 110 ? 3 : 5);

describe(`motor-health API (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let other: TBuiltAccount;
  let unbound: TBuiltDevice;
  let bound: TBuiltDevice;
  let machineId: number;
  let noVibration: TBuiltDevice;

  const get = (device: TBuiltDevice, query: string, token?: string) =>
    server.api<TMotorHealth & { code?: string }>('GET', `${motorHealthPath(device.tangramId)}?${query}`, { token: token ?? vendor.token });
  const twoHours = `startTs=${T0}&endTs=${T0 + 2 * HOUR}`;

  beforeAll(async () => {
    server = await startTestServer();
    const db = server.ctx.db;
    vendor = await buildVendor(server);
    other = await buildVendor(server);
    const project = await buildDeviceProject(db, { tenantId: vendor.tenantId, count: 2 });
    [unbound, bound] = project.devices;
    noVibration = (await buildDeviceProject(db, { tenantId: vendor.tenantId, sensors: [{ key: 'temperature' }] })).devices[0];
    // One reading a minute on three axes; the worst (y) carries the velocity.
    const telemetry = [unbound, bound].flatMap((d) =>
      Array.from({ length: 120 }, (_, i) => ({
        deviceId: d.id,
        key: 'vibration',
        ts: T0 + i * MIN,
        svcRecvTs: T0 + i * MIN,
        v1: velocityAt(i) / 2,
        v2: velocityAt(i),
        v3: 0.2,
      })),
    );
    await writeIngestBatch(db, { telemetry, status: [], rejected: [] });

    const [configure] = await db.insert(machineConfigures).values({ tenantId: vendor.tenantId, name: 'Turbine set' }).returning();
    const [component] = await db
      .insert(machineComponents)
      .values({ configureId: configure.id, name: 'Generator', productId: project.productId, keys: ['vibration'], position: 0 })
      .returning();
    const [machine] = await db
      .insert(machines)
      .values({ tenantId: vendor.tenantId, configureId: configure.id, name: 'Turbine 1', machineClass: 'group1_rigid' })
      .returning();
    machineId = machine.id;
    await db.insert(machineBindings).values({ machineId, componentId: component.id, deviceId: bound.id });
  });
  afterAll(() => server?.stop());

  it('answers 401 without a token', async () => {
    expect((await server.api('GET', `${motorHealthPath(unbound.tangramId)}?${twoHours}`)).status).toBe(401);
  });

  it("answers 404 for another tenant's device", async () => {
    const res = await get(unbound, twoHours, other.token);
    expect(res.status).toBe(404);
  });

  it('answers 403 to a user whose role lacks view_history, 200 once a role grants it', async () => {
    const user = await buildUser(server, vendor.tenantId);
    await grantByRole(server.ctx.db, unbound.id, user.accountId, ['view_telemetry', 'receive_alerts']);
    const refused = await get(unbound, twoHours, user.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(ErrorCode.DevicePermissionDenied);
    await grantByRole(server.ctx.db, unbound.id, user.accountId, ['view_history']);
    expect((await get(unbound, twoHours, user.token)).status).toBe(200);
  });

  it('answers 400 to malformed input, never 5xx', async () => {
    for (const query of ['', `startTs=abc&endTs=${T0}`, `startTs=${T0}&endTs=1e20`, `${twoHours}&width=9`, `${twoHours}&width=5001`]) {
      expect((await get(unbound, query)).status, query).toBe(400);
    }
    const badId = await server.api('GET', `${motorHealthPath('not-a-tangram-id')}?${twoHours}`, { token: vendor.token });
    expect(badId.status).toBe(400);
  });

  it('refuses a reversed range and one over 90 days, as aggregated history', async () => {
    expect((await get(unbound, `startTs=${T0}&endTs=${T0}`)).status).toBe(400);
    const long = await get(unbound, `startTs=${T0}&endTs=${T0 + 90 * DAY_MS + 1}`);
    expect(long.status).toBe(400);
    expect(long.body.code).toBe(ErrorCode.RangeTooLong);
  });

  it('judges an unbound device by the default class (group 2 rigid): latest zone, series and hours per zone', async () => {
    const res = await get(unbound, twoHours);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      key: 'vibration',
      unit: 'mm/s',
      has_vibration_key: true,
      machine_class: 'group2_rigid',
      class_source: 'default',
      machine: null,
      boundaries_mm_s: { ab: 1.4, bc: 2.8, cd: 4.5 },
      latest: { ts: T0 + 119 * MIN, velocity_mm_s: 5, zone: 'D' },
      source: 'raw',
      bucket_ms: 30_000,
      hours_bucket_ms: 30_000,
    });
    expect(res.body.series.map((s) => [s.ts, s.velocity_mm_s])).toEqual(
      Array.from({ length: 120 }, (_, i) => [T0 + i * MIN, velocityAt(i)]),
    );
    // 1.0 → A, 2.0 → B, 3.0 → C, 5.0 → D; each reading holds its minute.
    const { hours } = res.body;
    expect(hours.A).toBeCloseTo(1, 9);
    expect(hours.B).toBeCloseTo(0.5, 9);
    expect(hours.C).toBeCloseTo(20 / 60, 9);
    expect(hours.D).toBeCloseTo(10 / 60, 9);
  });

  it('counts hours from 1-min rollups on a 7-day range, where the chart’s 30-min buckets would average the peaks away', async () => {
    const res = await get(unbound, `startTs=${T0 - 6 * DAY_MS}&endTs=${T0 + DAY_MS}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: 'rollup_1m', bucket_ms: 30 * MIN, hours_bucket_ms: MIN });
    expect(res.body.series.map((s) => s.velocity_mm_s)).toEqual([1, 1, 2, (20 * 3 + 10 * 5) / 30]);
    const { hours } = res.body;
    expect([hours.A, hours.B, hours.C, hours.D].map((h) => Math.round(h * 60))).toEqual([60, 30, 20, 10]);
  });

  it('judges a device bound to a group-1 rigid machine by the group-1 boundaries, naming the machine', async () => {
    const res = await get(bound, twoHours);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      machine_class: 'group1_rigid',
      class_source: 'machine',
      machine: { id: machineId, name: 'Turbine 1' },
      boundaries_mm_s: { ab: 2.3, bc: 4.5, cd: 7.1 },
      latest: { velocity_mm_s: 5, zone: 'C' },
    });
    // 1.0 and 2.0 → A, 3.0 → B, 5.0 → C; nothing reaches 7.1.
    const { hours } = res.body;
    expect(hours.A).toBeCloseTo(1.5, 9);
    expect(hours.B).toBeCloseTo(20 / 60, 9);
    expect(hours.C).toBeCloseTo(10 / 60, 9);
    expect(hours.D).toBe(0);
  });

  it('says when the device’s project has no vibration key, with nothing to judge', async () => {
    const res = await get(noVibration, twoHours);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ has_vibration_key: false, latest: null, series: [], hours: { A: 0, B: 0, C: 0, D: 0 } });
  });
});
