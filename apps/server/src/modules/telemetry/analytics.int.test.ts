import { DAY_MS, paths, STATS_EXACT_POINTS_MAX, type TActivationRate, type TStatisticsSummary } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { startTwoTenants, type TTwoTenants } from '../../../test/tenants.js';
import { deviceAuthz } from '../../db/schema.js';
import { type TTelemetryRowIn, writeIngestBatch } from './write.js';

const T0 = Date.UTC(2026, 2, 1);
const MINUTE = 60_000;
const HOUR = 3_600_000;

describe(`analytics: series statistics and the activation rate (${TEST_DB_KIND})`, () => {
  let t: TTwoTenants;
  let project: TBuiltProject;
  let foreign: TBuiltProject;
  const summary = (token: string | undefined, query: string) =>
    t.server.api<TStatisticsSummary & { code?: string }>('GET', `${paths.tsStatisticsSummary}?${query}`, { token });
  const ids = () => project.devices.map((d) => d.tangramId);

  beforeAll(async () => {
    t = await startTwoTenants();
    project = await buildDeviceProject(t.server.ctx.db, { tenantId: t.vendor.tenantId, count: 4 });
    foreign = await buildDeviceProject(t.server.ctx.db, { tenantId: t.other.tenantId, count: 1 });
    const row = (deviceId: number, key: string, ts: number, v1: number): TTelemetryRowIn => ({
      deviceId,
      key,
      ts,
      svcRecvTs: ts + 5,
      v1,
      v2: null,
      v3: null,
    });
    const [a, b] = project.devices;
    await writeIngestBatch(t.server.ctx.db, {
      telemetry: [
        // a: 0..99, one a minute; b: 10, 20, 30; a's "huge" key would overflow float8 sums and squares.
        ...Array.from({ length: 100 }, (_, i) => row(a.id, 'temperature', T0 + i * MINUTE, i)),
        ...[10, 20, 30].map((v, i) => row(b.id, 'temperature', T0 + i * MINUTE, v)),
        ...[1.7e308, 1.7e308, -1.7e308].map((v, i) => row(a.id, 'huge', T0 + i * MINUTE, v)),
      ],
      status: [],
      rejected: [],
    });
  });
  afterAll(() => t.server.stop());

  it('summarises each device × key exactly over its points: count, min, max, avg, stddev, p5/p50/p95', async () => {
    const res = await summary(t.vendor.token, `tangramIds=${ids().join(',')}&keys=temperature,huge&startTs=${T0}&endTs=${T0 + DAY_MS}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((s) => `${s.tangramId}/${s.key}`)).toEqual(ids().flatMap((id) => [`${id}/temperature`, `${id}/huge`]));
    const [aTemp, aHuge, bTemp, , cTemp] = res.body.data;
    expect(aTemp).toMatchObject({ basis: 'points', count: 100, min: 0, max: 99, avg: 49.5, p5: 4, p50: 49, p95: 94 });
    expect(aTemp.stddev).toBeCloseTo(Math.sqrt((100 * 100 - 1) / 12), 9);
    expect(bTemp).toMatchObject({ count: 3, min: 10, max: 30, avg: 20, p50: 20 });
    expect(bTemp.stddev).toBeCloseTo(Math.sqrt(200 / 3), 9);
    // Sums and squares of 1.7e308 stay finite: no 500, the average is the exact 1.7e308 / 3.
    expect(aHuge).toMatchObject({ count: 3, min: -1.7e308, max: 1.7e308, p50: 1.7e308 });
    expect(aHuge.avg).toBeCloseTo(1.7e308 / 3, -300);
    expect(Number.isFinite(aHuge.stddev)).toBe(true);
    expect(cTemp).toEqual({
      tangramId: ids()[2],
      key: 'temperature',
      basis: 'points',
      count: 0,
      min: null,
      max: null,
      avg: null,
      stddev: null,
      p5: null,
      p50: null,
      p95: null,
    });
    // Only points inside the range count.
    const part = await summary(
      t.vendor.token,
      `tangramIds=${ids()[0]}&keys=temperature&startTs=${T0 + 10 * MINUTE}&endTs=${T0 + 19 * MINUTE}`,
    );
    expect(part.body.data[0]).toMatchObject({ count: 10, min: 10, max: 19, avg: 14.5 });
  });

  it(`summarises a series of more than ${STATS_EXACT_POINTS_MAX} points from its hourly rollups`, async () => {
    const c = project.devices[2];
    const hours = Math.ceil((STATS_EXACT_POINTS_MAX + 1) / 60);
    // Every minute of hour h holds h: the hourly averages are 0..hours-1.
    const points = Array.from({ length: hours * 60 }, (_, i) => ({
      deviceId: c.id,
      key: 'load',
      ts: T0 + i * MINUTE,
      svcRecvTs: T0 + i * MINUTE,
      v1: Math.floor(i / 60),
      v2: null,
      v3: null,
    }));
    for (let i = 0; i < points.length; i += 5_000) {
      await writeIngestBatch(t.server.ctx.db, { telemetry: points.slice(i, i + 5_000), status: [], rejected: [] });
    }
    const res = await summary(t.vendor.token, `tangramIds=${c.tangramId}&keys=load&startTs=${T0 + 5 * MINUTE}&endTs=${T0 + hours * HOUR}`);
    expect(res.status).toBe(200);
    const [s] = res.body.data;
    // Widened to whole hours: every point counts.
    expect(s).toMatchObject({ basis: 'hourly', count: hours * 60, min: 0, max: hours - 1, avg: (hours - 1) / 2 });
    expect(s.p50).toBe(Math.ceil(hours / 2) - 1);
    expect(s.stddev).toBeCloseTo(Math.sqrt((hours * hours - 1) / 12), 6);
  });

  it('refuses more than 5 devices, more than 90 days, bad keys and bad IDs', async () => {
    const id = ids()[0];
    for (const query of [
      `tangramIds=${[...ids(), ...Array.from({ length: 3 }, (_, i) => `${id.slice(0, -1)}${i}`)].join(',')}&keys=temperature&startTs=${T0}&endTs=${T0 + 1}`,
      `tangramIds=${id}&keys=temperature&startTs=${T0}&endTs=${T0 + 91 * DAY_MS}`,
      `tangramIds=${id}&keys=temperature&startTs=${T0 + 1}&endTs=${T0}`,
      `tangramIds=${id}&keys=bad key&startTs=${T0}&endTs=${T0 + 1}`,
      `tangramIds=nope&keys=temperature&startTs=${T0}&endTs=${T0 + 1}`,
      `tangramIds=${id}&startTs=${T0}&endTs=${T0 + 1}`,
    ]) {
      const res = await summary(t.vendor.token, query);
      expect(res.status, query).toBe(400);
    }
  });

  it('shows a device only to who may see it: 401, another tenant 404, a user once authorised', async () => {
    const q = (id: string) => `tangramIds=${id}&keys=temperature&startTs=${T0}&endTs=${T0 + DAY_MS}`;
    expect((await summary(undefined, q(ids()[0]))).status).toBe(401);
    expect((await summary(t.other.token, q(ids()[0]))).status).toBe(404);
    expect((await summary(t.vendor.token, q(foreign.devices[0].tangramId))).status).toBe(404);
    // One invisible device among visible ones refuses the whole request (nothing about it leaks).
    expect((await summary(t.vendor.token, q(`${ids()[0]},${foreign.devices[0].tangramId}`))).status).toBe(404);
    expect((await summary(t.user.token, q(ids()[0]))).status).toBe(404);
    await t.server.ctx.db.insert(deviceAuthz).values({ deviceId: project.devices[0].id, accountId: t.user.accountId });
    const seen = await summary(t.user.token, q(ids()[0]));
    expect(seen.status).toBe(200);
    expect(seen.body.data[0]).toMatchObject({ count: 100 });
  });

  it('counts registered and activated devices per day, product and project, for vendors of the section only', async () => {
    const now = Date.now();
    const url = (offsetMin = 0) => `${paths.tsActivationRate}?startTs=${now - 2 * DAY_MS}&endTs=${now + 1000}&utc_offset_min=${offsetMin}`;
    const res = await t.server.api<TActivationRate>('GET', url(480), { token: t.vendor.token });
    expect(res.status).toBe(200);
    // Days start at Taipei midnight; the devices were registered today, three of them have reported (the fourth never).
    const taipeiMidnight = Math.floor((now + 480 * 60_000) / DAY_MS) * DAY_MS - 480 * 60_000;
    expect(res.body.by_day).toHaveLength(3);
    expect(res.body.by_day.at(-1)).toEqual({ day: taipeiMidnight, registered: 4, activated: 3 });
    expect(res.body.by_day[0]).toEqual({ day: taipeiMidnight - 2 * DAY_MS, registered: 0, activated: 0 });
    expect(res.body.by_product).toEqual([{ id: project.productId, name: expect.any(String), registered: 4, activated: 3 }]);
    expect(res.body.by_project).toEqual([{ id: project.projectId, name: expect.any(String), registered: 4, activated: 3 }]);
    // The other tenant sees its own device only (never reported).
    const other = await t.server.api<TActivationRate>('GET', url(), { token: t.other.token });
    expect(other.body.by_day.at(-1)).toMatchObject({ registered: 1, activated: 0 });

    expect((await t.server.api('GET', url())).status).toBe(401);
    expect((await t.server.api('GET', url(), { token: t.user.token })).status).toBe(403);
    const ungranted = await buildAccount(t.server, { level: 'vendor', tenantId: t.vendor.tenantId, fea: ['4'] });
    expect((await t.server.api('GET', url(), { token: ungranted.token })).status).toBe(403);
    expect((await t.server.api('GET', `${paths.tsActivationRate}?startTs=0&endTs=${now}`, { token: t.vendor.token })).status).toBe(400);
  });
});
