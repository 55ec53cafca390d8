import { dashboardPaths, type TDashboardPage, type TDashboardPageList, type TDashboardState, type TWidgetInput } from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount } from '../../../test/factories.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { startTwoTenants, type TTwoTenants } from '../../../test/tenants.js';
import { deviceAuthz, platformTelemetries } from '../../db/schema.js';

const at = (x: number, y: number) => ({ x, y, w: 4, h: 3 });

describe(`dashboard pages and widgets (${TEST_DB_KIND})`, () => {
  let t: TTwoTenants;
  let project: TBuiltProject;
  let foreign: TBuiltProject;
  const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown) =>
    t.server.api<T & { code?: string; details?: { path: string; message: string }[] }>(method, url, { token, body });

  beforeAll(async () => {
    t = await startTwoTenants();
    project = await buildDeviceProject(t.server.ctx.db, { tenantId: t.vendor.tenantId, count: 2 });
    foreign = await buildDeviceProject(t.server.ctx.db, { tenantId: t.other.tenantId, count: 1 });
  });
  afterAll(() => t.server.stop());

  it('makes, renames, orders and deletes pages; page 1 is the first', async () => {
    const a = await api<TDashboardPage>('POST', dashboardPaths.pages, t.vendor.token, { name: 'Plant' });
    const b = await api<TDashboardPage>('POST', dashboardPaths.pages, t.vendor.token, { name: 'Line 2' });
    expect([a.status, b.body.position]).toEqual([201, 2]);
    expect((await api<TDashboardPage>('PUT', dashboardPaths.page(b.body.id), t.vendor.token, { name: 'Line two' })).body.name).toBe(
      'Line two',
    );
    const ordered = await api<TDashboardPageList>('PUT', dashboardPaths.pageOrder, t.vendor.token, { ids: [b.body.id, a.body.id] });
    expect(ordered.body.data.map((p) => [p.name, p.position])).toEqual([
      ['Line two', 1],
      ['Plant', 2],
    ]);
    expect((await api('PUT', dashboardPaths.pageOrder, t.vendor.token, { ids: [a.body.id] })).status).toBe(400);
    expect((await api('DELETE', dashboardPaths.page(b.body.id), t.vendor.token)).status).toBe(204);
    const left = await api<TDashboardPageList>('GET', dashboardPaths.pages, t.vendor.token);
    expect(left.body.data.map((p) => [p.name, p.position])).toEqual([['Plant', 1]]);
    expect((await api('POST', dashboardPaths.pages, t.vendor.token, { name: '' })).status).toBe(400);
    expect((await api('POST', dashboardPaths.pages, t.vendor.token, { name: 'x'.repeat(33) })).status).toBe(400);
  });

  it('adds new widgets, updates existing ones and removes the ones left out, in one save', async () => {
    const page = await api<TDashboardPage>('POST', dashboardPaths.pages, t.vendor.token, { name: 'Widgets' });
    const [d0, d1] = project.devices;
    const first: TWidgetInput[] = [
      {
        new: true,
        type: 'latest',
        title: 'Temp',
        parameter: JSON.stringify({ tangram_id: d0.tangramId, key: 'temperature', dashboard_page: 1 }),
        layout: at(0, 0),
      },
      {
        new: true,
        type: 'line',
        title: 'Trend',
        parameter: JSON.stringify({
          series: [
            { tangram_id: d0.tangramId, key: 'temperature' },
            { tangram_id: d1.tangramId, key: 'temperature' },
          ],
          range_ms: 86_400_000,
        }),
        layout: at(4, 0),
      },
      { new: true, type: 'alerts', title: 'Alerts', parameter: '{}', layout: at(8, 0) },
    ];
    const saved = await api<TDashboardState>('PUT', dashboardPaths.widgets(page.body.id), t.vendor.token, { widgetList: first });
    expect(saved.status).toBe(200);
    expect(saved.body.widgetList.map((w) => w.title)).toEqual(['Temp', 'Trend', 'Alerts']);
    const [temp, , alerts] = saved.body.widgetList;
    const second = await api<TDashboardState>('PUT', dashboardPaths.widgets(page.body.id), t.vendor.token, {
      widgetList: [
        { ...temp, title: 'Temperature', layout: at(0, 3) },
        { ...alerts },
        {
          new: true,
          type: 'gauge',
          parameter: JSON.stringify({
            tangram_id: d1.tangramId,
            key: 'temperature',
            min: 0,
            max: 50,
            thresholds: [{ value: 35, color: '#ff0000' }],
          }),
          layout: at(4, 3),
        },
      ],
    });
    expect(second.body.widgetList.map((w) => [w.id === temp.id, w.title, w.layout.y])).toEqual([
      [true, 'Temperature', 3],
      [false, 'Alerts', 0],
      [false, '', 3],
    ]);
    const read = await api<TDashboardState>('GET', dashboardPaths.widgets(page.body.id), t.vendor.token);
    expect(read.body.widgetList).toHaveLength(3);
    const listed = await api<TDashboardPageList>('GET', dashboardPaths.pages, t.vendor.token);
    expect(listed.body.data.find((p) => p.id === page.body.id)?.widget_count).toBe(3);
    expect((await api('DELETE', dashboardPaths.widget(alerts.id), t.vendor.token)).status).toBe(204);
    expect((await api<TDashboardState>('GET', dashboardPaths.widgets(page.body.id), t.vendor.token)).body.widgetList).toHaveLength(2);
  });

  it('refuses a bad parameter with its path, a device the caller may not see, and a widget of another page', async () => {
    const page = await api<TDashboardPage>('POST', dashboardPaths.pages, t.vendor.token, { name: 'Refusals' });
    const save = (widgetList: TWidgetInput[]) => api('PUT', dashboardPaths.widgets(page.body.id), t.vendor.token, { widgetList });
    const notJson = await save([{ new: true, type: 'latest', parameter: '{nope', layout: at(0, 0) }]);
    expect(notJson.body.details).toEqual([{ path: 'widgetList.0.parameter', message: 'parameter is not JSON' }]);
    const badGauge = await save([
      {
        new: true,
        type: 'gauge',
        parameter: JSON.stringify({ tangram_id: project.devices[0].tangramId, key: 'k', min: 5, max: 1 }),
        layout: at(0, 0),
      },
    ]);
    expect(badGauge.status).toBe(400);
    expect(badGauge.body.details?.[0]?.path).toBe('widgetList.0.parameter.max');
    const foreignDevice = await save([
      { new: true, type: 'status', parameter: JSON.stringify({ tangram_id: foreign.devices[0].tangramId }), layout: at(0, 0) },
    ]);
    expect(foreignDevice.body.details).toEqual([
      { path: 'widgetList.0.parameter', message: `device ${foreign.devices[0].tangramId} not found` },
    ]);
    // A platform-telemetry widget names one of the tenant's platform telemetries; another tenant's looks missing.
    const [own, theirs] = await t.server.ctx.db
      .insert(platformTelemetries)
      .values([
        { tenantId: t.vendor.tenantId, name: 'Power', formula: 'm1.current' },
        { tenantId: t.other.tenantId, name: 'Power', formula: 'm1.current' },
      ])
      .returning();
    const platform = (id: number): TWidgetInput => ({
      new: true,
      type: 'platform',
      parameter: JSON.stringify({ platform_telemetry_id: id }),
      layout: at(0, 0),
    });
    expect((await save([platform(own.id)])).status).toBe(200);
    expect((await save([platform(theirs.id)])).body.details).toEqual([
      { path: 'widgetList.0.parameter', message: `platform telemetry ${theirs.id} not found` },
    ]);
    const otherPage = await api<TDashboardPage>('POST', dashboardPaths.pages, t.vendor.token, { name: 'Other' });
    const there = await api<TDashboardState>('PUT', dashboardPaths.widgets(otherPage.body.id), t.vendor.token, {
      widgetList: [{ new: true, type: 'alerts', parameter: '{}', layout: at(0, 0) }],
    });
    const stolen = await save([{ ...there.body.widgetList[0], new: false }]);
    expect(stolen.body.details).toEqual([{ path: 'widgetList.0.id', message: 'not a widget of this page' }]);
    expect(
      (await save(Array.from({ length: 25 }, (_, i) => ({ new: true, type: 'alerts' as const, parameter: '{}', layout: at(0, i) }))))
        .status,
    ).toBe(400);
  });

  it('keeps dashboards per account: other tenants and other accounts get 404; a user saves only authorised devices', async () => {
    const page = await api<TDashboardPage>('POST', dashboardPaths.pages, t.vendor.token, { name: 'Mine' });
    const colleague = await buildAccount(t.server, { level: 'vendor', tenantId: t.vendor.tenantId });
    for (const token of [t.other.token, colleague.token]) {
      expect((await api('GET', dashboardPaths.widgets(page.body.id), token)).status).toBe(404);
      expect((await api('PUT', dashboardPaths.widgets(page.body.id), token, { widgetList: [] })).status).toBe(404);
      expect((await api('PUT', dashboardPaths.page(page.body.id), token, { name: 'x' })).status).toBe(404);
      expect((await api('DELETE', dashboardPaths.page(page.body.id), token)).status).toBe(404);
      expect((await api<TDashboardPageList>('GET', dashboardPaths.pages, token)).body.data.map((p) => p.id)).not.toContain(page.body.id);
    }
    const userPage = await api<TDashboardPage>('POST', dashboardPaths.pages, t.user.token, { name: 'User' });
    const widget = (tid: string): TWidgetInput => ({
      new: true,
      type: 'latest',
      parameter: JSON.stringify({ tangram_id: tid, key: 'temperature' }),
      layout: at(0, 0),
    });
    expect(
      (await api('PUT', dashboardPaths.widgets(userPage.body.id), t.user.token, { widgetList: [widget(project.devices[0].tangramId)] }))
        .status,
    ).toBe(400);
    // A user has no platform telemetry, not even the tenant's.
    const [power] = await t.server.ctx.db
      .insert(platformTelemetries)
      .values({ tenantId: t.vendor.tenantId, name: 'User probe', formula: 'm1.current' })
      .returning();
    const platformWidget: TWidgetInput = {
      new: true,
      type: 'platform',
      parameter: JSON.stringify({ platform_telemetry_id: power.id }),
      layout: at(0, 0),
    };
    expect((await api('PUT', dashboardPaths.widgets(userPage.body.id), t.user.token, { widgetList: [platformWidget] })).status).toBe(400);
    await t.server.ctx.db.insert(deviceAuthz).values({ deviceId: project.devices[0].id, accountId: t.user.accountId });
    expect(
      (await api('PUT', dashboardPaths.widgets(userPage.body.id), t.user.token, { widgetList: [widget(project.devices[0].tangramId)] }))
        .status,
    ).toBe(200);

    const ungranted = await buildAccount(t.server, { level: 'user', tenantId: t.vendor.tenantId, fea: ['4'] });
    for (const [method, url, body] of [
      ['GET', dashboardPaths.pages, undefined],
      ['POST', dashboardPaths.pages, { name: 'n' }],
      ['PUT', dashboardPaths.pageOrder, { ids: [1] }],
      ['PUT', dashboardPaths.page(page.body.id), { name: 'n' }],
      ['DELETE', dashboardPaths.page(page.body.id), undefined],
      ['GET', dashboardPaths.widgets(page.body.id), undefined],
      ['PUT', dashboardPaths.widgets(page.body.id), { widgetList: [] }],
      ['DELETE', dashboardPaths.widget(1), undefined],
    ] as const) {
      expect((await api(method, url, ungranted.token, body)).status, `${method} ${url}`).toBe(403);
      expect((await t.server.api(method, url, { body })).status, `${method} ${url}`).toBe(401);
    }
  });
});
