/**
 * What a dashboard page reads when it opens (docs/dashboard.md "Opening a page"): the device detail, the twins and
 * the bucketed series, each answered by one query. These pin whole answers — order, empty parts, counters, a device
 * without data, one the caller may not see, one it may see without the permission — so that folding a read into one
 * query cannot change what it says.
 */
import { DAY_MS, ErrorCode, paths, type TDeviceDetail, type TDeviceTwin, type TTimeseriesResponse } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltDevice } from '../../../test/device-factory.js';
import { buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { deviceIngestStats, projectRoleDevices, projectRoleMembers, projectRoles, projectSensors } from '../../db/schema.js';
import { writeIngestBatch } from '../telemetry/write.js';

const FIVE_MIN = 300_000;
// A 5-minute boundary a day ago, so a 24-hour range at width 300 reads 5-minute buckets of the 1-min rollup.
const T0 = Math.floor((Date.now() - DAY_MS / 2) / FIVE_MIN) * FIVE_MIN;
const groups = [{ name: 'mode', index: 0, bytesLength: 2, values: [{ value: 1, label: 'run' }] }];
// Keys out of alphabetical order, so an answer ordered by key rather than by id shows.
const sensors = [
  { key: 'zeta', unit: 'bar', valueCount: 3 },
  { key: 'alpha', unit: '', enabled: false },
];

describe(`dashboard reads: device detail, twins and series (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount; // authorised to `busy` only
  let viewer: TBuiltAccount; // a role on `busy` with view_telemetry only
  let busy: TBuiltDevice; // telemetry, status word and ingest counters
  let quiet: TBuiltDevice; // same project, nothing received
  let bare: TBuiltDevice; // a project without sensors or status groups

  beforeAll(async () => {
    server = await startTestServer();
    const db = server.ctx.db;
    vendor = await buildVendor(server);
    const project = await buildDeviceProject(db, { tenantId: vendor.tenantId, count: 2, sensors, statusGroups: groups });
    [busy, quiet] = project.devices;
    const bareProject = await buildDeviceProject(db, { tenantId: vendor.tenantId });
    [bare] = bareProject.devices;
    await db.delete(projectSensors).where(eq(projectSensors.projectId, bareProject.projectId));
    user = await buildUser(server, vendor.tenantId);
    await authorise(db, busy.id, user.accountId);
    viewer = await buildUser(server, vendor.tenantId);
    const [role] = await db
      .insert(projectRoles)
      .values({ tenantId: vendor.tenantId, projectId: project.projectId, name: 'viewer', permissions: ['view_telemetry'], updatedAt: T0 })
      .returning();
    await db.insert(projectRoleDevices).values({ roleId: role.id, deviceId: busy.id });
    await db.insert(projectRoleMembers).values({ roleId: role.id, accountId: viewer.accountId });
    const point = (key: string, dt: number, v1: number, v2: number | null = null) => ({
      deviceId: busy.id,
      key,
      ts: T0 + dt,
      svcRecvTs: T0 + dt + 5,
      v1,
      v2,
      v3: null,
    });
    await writeIngestBatch(db, {
      telemetry: [point('zeta', 0, 1, 2), point('zeta', 60_000, 3, 6), point('zeta', 2 * FIVE_MIN, 10, 20), point('alpha', 0, 7)],
      status: [{ deviceId: busy.id, ts: T0, svcRecvTs: T0 + 5, value: 5 }],
      rejected: [],
    });
    await db.insert(deviceIngestStats).values([
      { deviceId: busy.id, reason: 'unknown_key', count: 3, lastAt: T0 },
      { deviceId: busy.id, reason: 'ts_out_of_range', count: 7, lastAt: T0 },
    ]);
  });
  afterAll(() => server?.stop());

  const get = <T>(url: string, token = vendor.token) => server.api<T>('GET', url, { token });
  const detail = (tid: string, token?: string) => get<TDeviceDetail>(paths.deviceV2(tid), token);

  it('answers the detail with its sensors by id, every ingest counter, and empty parts for a bare project', async () => {
    const res = await detail(busy.tangramId.toLowerCase());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tangram_id: busy.tangramId, status_groups: groups });
    expect(res.body.sensors).toEqual([
      { key: 'zeta', name: 'zeta', unit: 'bar', value_count: 3, enabled: true, value_type: 'number' },
      { key: 'alpha', name: 'alpha', unit: '', value_count: 1, enabled: false, value_type: 'number' },
    ]);
    expect(res.body.ingest_rejected).toEqual({ unknown_key: 3, ts_out_of_range: 7 });
    const empty = await detail(bare.tangramId);
    expect(empty.body).toMatchObject({ tangram_id: bare.tangramId, status_groups: [], sensors: [], ingest_rejected: {} });
    expect((await detail(busy.tangramId, user.token)).body.ingest_rejected).toEqual({ unknown_key: 3, ts_out_of_range: 7 });
    expect((await detail(quiet.tangramId, user.token)).status).toBe(404);
  });

  it('answers twins in the order asked, latest values by key, a device without values, invisible ones left out', async () => {
    const ids = [quiet.tangramId, busy.tangramId.toLowerCase(), bare.tangramId].join(',');
    const res = await get<TDeviceTwin[]>(`${paths.tsDeviceTwins}?tangramIds=${ids}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { tangramId: quiet.tangramId, telemetry: [], status: null },
      {
        tangramId: busy.tangramId,
        telemetry: [
          { key: 'alpha', ts: T0, svc_recv_ts: T0 + 5, vs: [7] },
          { key: 'zeta', ts: T0 + 2 * FIVE_MIN, svc_recv_ts: T0 + 2 * FIVE_MIN + 5, vs: [10, 20] },
        ],
        status: expect.objectContaining({ value: 5, ts: T0 }),
      },
      { tangramId: bare.tangramId, telemetry: [], status: null },
    ]);
    const asUser = await get<TDeviceTwin[]>(`${paths.tsDeviceTwins}?tangramIds=${ids}`, user.token);
    expect(asUser.body.map((t) => t.tangramId)).toEqual([busy.tangramId]);
    expect(asUser.body[0].telemetry).toHaveLength(2);
  });

  it('answers a series bucket by bucket, an empty one for a device without data, 404 unseen and 403 without view_history', async () => {
    const series = (tid: string, token?: string, fn = 'avg') =>
      get<TTimeseriesResponse>(
        `${paths.tsTimeseriesV2}?tangramId=${tid}&key=zeta&startTs=${T0 - DAY_MS / 2}&endTs=${T0 + DAY_MS / 2}&fn=${fn}&diff=false&width=300`,
        token,
      );
    const res = await series(busy.tangramId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tangramId: busy.tangramId,
      key: 'zeta',
      fn: 'avg',
      bucket_ms: FIVE_MIN,
      source: 'rollup_1m',
      points: [
        { ts: T0, vs: [2, 4, null] },
        { ts: T0 + 2 * FIVE_MIN, vs: [10, 20, null] },
      ],
    });
    expect((await series(busy.tangramId, user.token, 'max')).body.points).toEqual([
      { ts: T0, vs: [3, 6, null] },
      { ts: T0 + 2 * FIVE_MIN, vs: [10, 20, null] },
    ]);
    const empty = await series(quiet.tangramId);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ tangramId: quiet.tangramId, points: [] });
    expect((await series(quiet.tangramId, user.token)).status).toBe(404);
    const denied = await series(busy.tangramId, viewer.token);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: ErrorCode.DevicePermissionDenied });
  });
});
