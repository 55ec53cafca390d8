import { DAY_MS, alertPaths, type TAlertDetail, type TAlertStatistics } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import type { TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startTwoTenants } from '../../../test/tenants.js';
import { insertAlert } from './alerts.fixtures.js';

/** Midnight of 2026-03-02 in Taipei (UTC+8), the first day of the range. */
const DAY0 = Date.UTC(2026, 2, 1, 16);
const TAIPEI = 480;

describe(`alert statistics (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let p1: TBuiltProject;
  let p2: TBuiltProject;

  beforeAll(async () => {
    ({ server, vendor, user } = await startTwoTenants());
    p1 = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    p2 = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 });
    await authorise(server.ctx.db, p1.devices[0].id, user.accountId);
    const db = server.ctx.db;
    const [d0, d1] = p1.devices;
    const d2 = p2.devices[0];
    // Day 0: two alerts of one rule on d0 (the first resolved), one early warning on d1.
    await insertAlert(db, d0.id, { firstSeenAt: DAY0, ruleId: 7, ruleName: 'Hot (old name)', state: 'resolved', count: 4 });
    await insertAlert(db, d0.id, { firstSeenAt: DAY0 + 3_600_000, ruleId: 7, ruleName: 'Hot', count: 2, lastSeenAt: DAY0 + 7_200_000 });
    await insertAlert(db, d1.id, { firstSeenAt: DAY0 + 5_000, level: 'early_warning', ruleId: 8 });
    // Day 2, one millisecond before its local midnight ends: a reminder on d2.
    await insertAlert(db, d2.id, { firstSeenAt: DAY0 + 3 * DAY_MS - 1, level: 'remind', ruleId: 9 });
    // Outside the range.
    await insertAlert(db, d2.id, { firstSeenAt: DAY0 - 1, level: 'remind', ruleId: 10 });
  });
  afterAll(() => server.stop());

  const range = `from=${DAY0}&to=${DAY0 + 3 * DAY_MS - 1}&utc_offset_min=${TAIPEI}`;
  const stats = async (query: string, token = vendor.token) => {
    const res = await server.api<TAlertStatistics>('GET', `${alertPaths.statistics}?${query}`, { token });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('counts by level, project, product and local day (every day present)', async () => {
    const s = await stats(range);
    expect(s.total).toBe(4);
    expect(s.by_level).toEqual({ remind: 1, early_warning: 1, alert: 2 });
    expect(s.by_project.map((p) => [p.id, p.count])).toEqual([
      [p1.projectId, 3],
      [p2.projectId, 1],
    ]);
    expect(s.by_product.map((p) => p.count)).toEqual([3, 1]);
    expect(s.by_day).toEqual([
      { day: DAY0, remind: 0, early_warning: 1, alert: 2 },
      { day: DAY0 + DAY_MS, remind: 0, early_warning: 0, alert: 0 },
      { day: DAY0 + 2 * DAY_MS, remind: 1, early_warning: 0, alert: 0 },
    ]);
  });

  it('days follow the caller’s offset: in UTC the same alerts fall on other days', async () => {
    const s = await stats(`from=${DAY0}&to=${DAY0 + 3 * DAY_MS - 1}`);
    expect(s.by_day.map((d) => d.day)).toEqual([0, 1, 2, 3].map((i) => Date.UTC(2026, 2, 1 + i)));
    expect(s.by_day.reduce((n, d) => n + d.remind + d.early_warning + d.alert, 0)).toBe(4);
  });

  it('applies the filters and the caller’s visibility', async () => {
    expect((await stats(`${range}&level=alert`)).total).toBe(2);
    expect((await stats(`${range}&project_id=${p2.projectId}`)).by_level).toEqual({ remind: 1, early_warning: 0, alert: 0 });
    const mine = await stats(range, user.token);
    expect(mine.total).toBe(2);
    expect(mine.by_project.map((p) => p.id)).toEqual([p1.projectId]);
  });

  it('refuses an offset beyond ±14 h', async () => {
    const res = await server.api('GET', `${alertPaths.statistics}?from=${DAY0}&to=${DAY0 + 1}&utc_offset_min=841`, { token: vendor.token });
    expect(res.status).toBe(400);
  });

  it('details one row per device and rule, most alerts first, paged', async () => {
    const res = await server.api<TAlertDetail>('GET', `${alertPaths.statisticsDetail}?${range}&limit=2`, { token: vendor.token });
    expect(res.status).toBe(200);
    expect(res.body.total_items).toBe(3);
    const [first, second] = res.body.data;
    expect(first).toMatchObject({
      device: { id: p1.devices[0].id, tangram_id: p1.devices[0].tangramId },
      project: { id: p1.projectId },
      rule: { kind: 'simple', id: 7, index: 0, name: 'Hot' },
      level: 'alert',
      alerts: 2,
      occurrences: 6,
      last_seen_at: DAY0 + 7_200_000,
    });
    expect(second.alerts).toBe(1);
    const page2 = await server.api<TAlertDetail>('GET', `${alertPaths.statisticsDetail}?${range}&limit=2&page=2`, { token: vendor.token });
    expect(page2.body.data).toHaveLength(1);
    const forUser = await server.api<TAlertDetail>('GET', `${alertPaths.statisticsDetail}?${range}`, { token: user.token });
    expect(forUser.body.data.map((r) => r.device.id)).toEqual([p1.devices[0].id]);
  });
});
