import { ALERT_CSV_COLUMNS, ALERT_RANGE_MAX_DAYS, DAY_MS, alertPaths, type TAlertList, type TAlertOptions } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { startTwoTenants } from '../../../test/tenants.js';
import type { TBuiltAccount } from '../../../test/factories.js';
import { alerts, projects } from '../../db/schema.js';
import { insertAlert, parseCsv } from './alerts.fixtures.js';

type TError = { code: string; message: string };
const T0 = Date.UTC(2026, 0, 10, 12);

describe(`alert history: filters, range, CSV (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let p1: TBuiltProject;
  let p2: TBuiltProject;
  let product2: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ server, vendor, user } = await startTwoTenants());
    p1 = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    p2 = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 1 });
    product2 = (await server.ctx.db.select().from(projects).where(eq(projects.id, p2.projectId)))[0].productId;
    await authorise(server.ctx.db, p1.devices[0].id, user.accountId);
    const db = server.ctx.db;
    ids.old = await insertAlert(db, p1.devices[0].id, { firstSeenAt: T0 - 10 * DAY_MS, level: 'remind', state: 'resolved' });
    ids.a = await insertAlert(db, p1.devices[0].id, { firstSeenAt: T0, level: 'alert', message: '=HYPERLINK("x")' });
    ids.b = await insertAlert(db, p1.devices[1].id, { firstSeenAt: T0 + 1000, level: 'early_warning', state: 'acknowledged' });
    ids.c = await insertAlert(db, p2.devices[0].id, { firstSeenAt: T0 + 2000, level: 'alert', triggerKey: null, triggerValue: null });
  });
  afterAll(() => server.stop());

  const list = async (query: string, token = vendor.token) => {
    const res = await server.api<TAlertList>('GET', `${alertPaths.alerts}?${query}`, { token });
    expect(res.status).toBe(200);
    return res.body.data.map((a) => a.id);
  };
  const range = `from=${T0 - 20 * DAY_MS}&to=${T0 + DAY_MS}`;

  it('lists newest first and pages with total_items', async () => {
    expect(await list(range)).toEqual([ids.c, ids.b, ids.a, ids.old]);
    const page2 = (await server.api<TAlertList>('GET', `${alertPaths.alerts}?${range}&limit=3&page=2`, { token: vendor.token })).body;
    expect(page2).toMatchObject({ page: 2, limit: 3, total_items: 4 });
    expect(page2.data.map((a) => a.id)).toEqual([ids.old]);
  });

  it('filters by level, state, project, product, device and time', async () => {
    expect(await list(`${range}&level=alert`)).toEqual([ids.c, ids.a]);
    expect(await list(`${range}&state=acknowledged`)).toEqual([ids.b]);
    expect(await list(`${range}&project_id=${p1.projectId}`)).toEqual([ids.b, ids.a, ids.old]);
    expect(await list(`${range}&product_id=${product2}`)).toEqual([ids.c]);
    expect(await list(`${range}&device=${p1.devices[1].tangramId.toLowerCase()}`)).toEqual([ids.b]);
    expect(await list(`${range}&level=alert&project_id=${p1.projectId}`)).toEqual([ids.a]);
    expect(await list(`${range}&rule_kind=simple`)).toEqual([ids.c, ids.b, ids.a, ids.old]);
    expect(await list(`${range}&rule_kind=platform`)).toEqual([]);
    const [ruleOfB] = await server.ctx.db.select({ ruleId: alerts.ruleId }).from(alerts).where(eq(alerts.id, ids.b));
    expect(await list(`${range}&rule_kind=simple&rule_id=${ruleOfB?.ruleId}`)).toEqual([ids.b]);
    // Both ends inclusive.
    expect(await list(`from=${T0}&to=${T0 + 1000}`)).toEqual([ids.b, ids.a]);
    // A user's filters work within what it may see.
    expect(await list(range, user.token)).toEqual([ids.a, ids.old]);
    expect(await list(`${range}&project_id=${p2.projectId}`, user.token)).toEqual([]);
  });

  it('refuses bad filters with 400', async () => {
    for (const q of [
      'level=panic',
      'state=gone',
      'project_id=x',
      'device=123',
      'from=-1',
      'limit=0',
      'page=0',
      'rule_kind=x',
      'rule_id=5',
    ]) {
      const res = await server.api<TError>('GET', `${alertPaths.alerts}?${q}`, { token: vendor.token });
      expect(res.status, q).toBe(400);
    }
  });

  it(`allows exactly ${ALERT_RANGE_MAX_DAYS} days and refuses one millisecond more, on the list and the CSV`, async () => {
    const to = T0 + 5000;
    const atBound = `from=${to - ALERT_RANGE_MAX_DAYS * DAY_MS}&to=${to}`;
    const past = `from=${to - ALERT_RANGE_MAX_DAYS * DAY_MS - 1}&to=${to}`;
    for (const path of [alertPaths.alerts, alertPaths.download, alertPaths.statistics, alertPaths.statisticsDetail, alertPaths.projects]) {
      expect((await server.api('GET', `${path}?${atBound}`, { token: vendor.token })).status, path).toBe(200);
      const refused = await server.api<TError>('GET', `${path}?${past}`, { token: vendor.token });
      expect(refused.status, path).toBe(400);
      expect(refused.body.code).toBe('RANGE_TOO_LONG');
      const reversed = await server.api<TError>('GET', `${path}?from=${to}&to=${to}`, { token: vendor.token });
      expect(reversed.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('without a range answers the last 90 days', async () => {
    const recent = await insertAlert(server.ctx.db, p2.devices[0].id, { firstSeenAt: Date.now() - 1000 });
    expect(await list('')).toEqual([recent]);
  });

  it('downloads the filtered history as CSV, newest first, with neutralised formulas', async () => {
    const res = await server.api<string>('GET', `${alertPaths.download}?${range}&project_id=${p1.projectId}`, { token: vendor.token });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('attachment; filename="alerts_');
    const rows = parseCsv(res.body);
    expect(Object.keys(rows[0])).toEqual([...ALERT_CSV_COLUMNS]);
    expect(rows.map((r) => Number(r.id))).toEqual([ids.b, ids.a, ids.old]);
    const a = rows[1];
    expect(a).toMatchObject({
      level: 'alert',
      state: 'open',
      message: `'=HYPERLINK("x")`,
      rule_kind: 'simple',
      device_tangram_id: p1.devices[0].tangramId,
      trigger_key: 'temperature',
      trigger_value: '31.5',
      first_seen: new Date(T0).toISOString(),
      first_seen_ms: String(T0),
      count: '1',
      acknowledged_at: '',
      resolved_reason: '',
    });
  });

  it('streams more rows than one read holds', async () => {
    const from = T0 + 3 * DAY_MS;
    for (let i = 0; i < 5; i += 1) await insertAlert(server.ctx.db, p2.devices[0].id, { firstSeenAt: from + i });
    const { prepareAlertCsv } = await import('./download.js');
    const principal = {
      accountId: vendor.accountId,
      tenantId: vendor.tenantId,
      email: vendor.email,
      level: vendor.level,
      fea: ['5'],
      via: 'jwt' as const,
    };
    const { stream } = await prepareAlertCsv(server.ctx.db, principal, { from, to: from + 10 }, 2);
    let text = '';
    for await (const chunk of stream) text += chunk;
    expect(text.trim().split('\n')).toHaveLength(6);
  });

  it('answers 404 NO_DATA_IN_PERIOD for an empty selection', async () => {
    const res = await server.api<TError>('GET', `${alertPaths.download}?from=${T0 - 80 * DAY_MS}&to=${T0 - 70 * DAY_MS}`, {
      token: vendor.token,
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NO_DATA_IN_PERIOD');
  });

  it('lists filter options with alert counts in the range', async () => {
    const projectsRes = await server.api<TAlertOptions>('GET', `${alertPaths.projects}?${range}`, { token: vendor.token });
    const counts = Object.fromEntries(projectsRes.body.data.map((p) => [p.id, p.count]));
    expect(counts).toEqual({ [p1.projectId]: 3, [p2.projectId]: 1 });
    const forUser = await server.api<TAlertOptions>('GET', `${alertPaths.projects}?${range}`, { token: user.token });
    expect(forUser.body.data.map((p) => [p.id, p.count])).toEqual([[p1.projectId, 2]]);
    const productsRes = await server.api<TAlertOptions>('GET', `${alertPaths.products}?${range}`, { token: vendor.token });
    expect(productsRes.body.data.find((p) => p.id === product2)?.count).toBe(1);
    const vendors = await server.api<TAlertOptions>('GET', `${alertPaths.vendors}?${range}`, { token: user.token });
    expect(vendors.body.data).toEqual([{ id: vendor.tenantId, name: expect.any(String), count: 2 }]);
  });
});
