import { ALERTS_LATEST_MAX, AlertErrorCode, alertPaths, type TAlert, type TAlertDashboard, type TAlertList } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount, buildUser, type TBuiltAccount } from '../../../test/factories.js';
import { TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { projects } from '../../db/schema.js';
import { startTwoTenants } from '../../../test/tenants.js';
import { grantByRole, insertAlert, insertAppRule } from './alerts.fixtures.js';

type TError = { code: string; message: string };

describe(`alerts API: access, visibility, acknowledge and resolve (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let roleUser: TBuiltAccount;
  let other: TBuiltAccount;
  let noFeature: TBuiltAccount;
  let mine: TBuiltProject;
  let theirs: TBuiltProject;
  let theirAlert: number;
  type TOwned = Record<'alerts' | 'projects' | 'products' | 'devices' | 'tenants', number>;
  let ours: TOwned;
  let theirsSeen: TOwned;

  beforeAll(async () => {
    ({ server, vendor, user, other } = await startTwoTenants());
    roleUser = await buildUser(server, vendor.tenantId);
    noFeature = await buildAccount(server, { level: 'vendor', tenantId: vendor.tenantId, fea: ['2', '3', '4'] });
    mine = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 3 });
    theirs = await buildDeviceProject(server.ctx.db, { tenantId: other.tenantId });
    await authorise(server.ctx.db, mine.devices[0].id, user.accountId);
    await grantByRole(server.ctx.db, mine.devices[1].id, roleUser.accountId);
    theirAlert = await insertAlert(server.ctx.db, theirs.devices[0].id);
    const productOf = async (projectId: number) =>
      (await server.ctx.db.select({ id: projects.productId }).from(projects).where(eq(projects.id, projectId)))[0].id;
    ours = {
      alerts: await insertAlert(server.ctx.db, mine.devices[0].id),
      projects: mine.projectId,
      products: await productOf(mine.projectId),
      devices: mine.devices[0].id,
      tenants: vendor.tenantId,
    };
    theirsSeen = {
      alerts: theirAlert,
      projects: theirs.projectId,
      products: await productOf(theirs.projectId),
      devices: theirs.devices[0].id,
      tenants: other.tenantId,
    };
  });
  afterAll(() => server.stop());

  const get = <T>(url: string, token?: string) => server.api<T>('GET', url, { token });
  const post = <T>(url: string, token?: string) => server.api<T>('POST', url, { token });
  const idsOf = (list: { data: TAlert[] }) => list.data.map((a) => a.id);

  describe('every route: 401 without a token, 403 without the alerts feature, 200 for the vendor, nothing of another tenant', () => {
    // Each read route, and what of another tenant would show in its answer (ids of alerts, projects, products...).
    type TBody = Record<string, unknown> & { data?: Record<string, unknown>[] };
    const dataIds = (b: TBody) => (b.data ?? []).map((x) => x.id as number);
    type TSeen = Partial<Record<'alerts' | 'projects' | 'products' | 'devices' | 'tenants', number[]>>;
    const reads: [string, string, (b: TBody) => TSeen][] = [
      ['alerts', alertPaths.alerts, (b) => ({ alerts: dataIds(b) })],
      ['dashboard/alerts', alertPaths.dashboard, (b) => ({ alerts: dataIds(b) })],
      ['vendors', alertPaths.vendors, (b) => ({ tenants: dataIds(b) })],
      ['products', alertPaths.products, (b) => ({ products: dataIds(b) })],
      ['projects', alertPaths.projects, (b) => ({ projects: dataIds(b) })],
      ['statistics', alertPaths.statistics, (b) => ({ projects: (b.by_project as { id: number }[]).map((p) => p.id) })],
      ['statistics/detail', alertPaths.statisticsDetail, (b) => ({ devices: (b.data ?? []).map((r) => (r.device as { id: number }).id) })],
    ];
    for (const [label, url, seen] of reads) {
      it(`GET ${label}`, async () => {
        expect((await get<TError>(url)).status).toBe(401);
        const denied = await get<TError>(url, noFeature.token);
        expect(denied.status).toBe(403);
        expect(denied.body.code).toBe('FORBIDDEN');
        // Each tenant's answer holds its own things and none of the other's.
        for (const [who, own, foreign] of [
          [vendor, ours, theirsSeen],
          [other, theirsSeen, ours],
        ] as const) {
          const res = await get<TBody>(url, who.token);
          expect(res.status).toBe(200);
          const s = seen(res.body);
          for (const kind of Object.keys(s) as (keyof TSeen)[]) {
            expect(s[kind]).toContain(own[kind]);
            expect(s[kind]).not.toContain(foreign[kind]);
          }
        }
        expect((await get(url, user.token)).status).toBe(200);
      });
    }

    it('GET alerts/download', async () => {
      const id = await insertAlert(server.ctx.db, mine.devices[2].id, { message: 'for the csv' });
      expect((await get(alertPaths.download)).status).toBe(401);
      expect((await get(alertPaths.download, noFeature.token)).status).toBe(403);
      const csv = await get<string>(alertPaths.download, vendor.token);
      expect(csv.status).toBe(200);
      expect(csv.body).toContain('for the csv');
      expect(csv.body.split('\n').some((line) => line.startsWith(`${theirAlert},`))).toBe(false);
      expect(csv.body.split('\n').some((line) => line.startsWith(`${id},`))).toBe(true);
    });

    for (const action of ['acknowledge', 'resolve'] as const) {
      it(`POST alerts/{id}/${action}`, async () => {
        const id = await insertAlert(server.ctx.db, mine.devices[2].id);
        const url = alertPaths[action](id);
        expect((await post(url)).status).toBe(401);
        expect((await post(url, noFeature.token)).status).toBe(403);
        const foreign = await post<TError>(alertPaths[action](theirAlert), vendor.token);
        expect(foreign.status).toBe(404);
        expect(foreign.body.code).toBe('NOT_FOUND');
        expect((await post(alertPaths[action](999_999), vendor.token)).status).toBe(404);
        const ok = await post<TAlert>(url, vendor.token);
        expect(ok.status).toBe(200);
        expect(ok.body.state).toBe(action === 'acknowledge' ? 'acknowledged' : 'resolved');
      });
    }
  });

  it('a user sees only the alerts of devices granted to it (directly or by a project role), everywhere', async () => {
    const a0 = await insertAlert(server.ctx.db, mine.devices[0].id);
    const a1 = await insertAlert(server.ctx.db, mine.devices[1].id);
    const a2 = await insertAlert(server.ctx.db, mine.devices[2].id);
    const list = (token: string) => get<TAlertList>(`${alertPaths.alerts}?limit=200`, token);
    const userIds = idsOf((await list(user.token)).body);
    expect(userIds).toContain(a0);
    expect(userIds).not.toContain(a1);
    expect(userIds).not.toContain(a2);
    const roleIds = idsOf((await list(roleUser.token)).body);
    expect(roleIds).toContain(a1);
    expect(roleIds).not.toContain(a0);
    expect(idsOf((await list(vendor.token)).body)).toEqual(expect.arrayContaining([a0, a1, a2]));
    expect(idsOf((await get<TAlertDashboard>(alertPaths.dashboard, user.token)).body)).not.toContain(a2);
    // Actions follow the same visibility: an alert the user cannot see is 404, like a missing one.
    expect((await post(alertPaths.acknowledge(a2), user.token)).status).toBe(404);
    expect((await post<TAlert>(alertPaths.acknowledge(a0), user.token)).body.acknowledged_by).toBe(user.email);
  });

  it("an app rule's alert is seen by the rule's owner only", async () => {
    const ruleId = await insertAppRule(server.ctx.db, mine.devices[0].id, user.accountId);
    const id = await insertAlert(server.ctx.db, mine.devices[0].id, { ruleKind: 'app', ruleId });
    expect(idsOf((await get<TAlertDashboard>(alertPaths.dashboard, user.token)).body)).toContain(id);
    expect(idsOf((await get<TAlertDashboard>(alertPaths.dashboard, vendor.token)).body)).not.toContain(id);
    expect((await post(alertPaths.resolve(id), vendor.token)).status).toBe(404);
  });

  it('acknowledge then resolve; repeats and late acknowledgements are 409 with a code', async () => {
    const id = await insertAlert(server.ctx.db, mine.devices[0].id);
    const ack = await post<TAlert>(alertPaths.acknowledge(id), vendor.token);
    expect(ack.body).toMatchObject({ state: 'acknowledged', acknowledged_by: vendor.email, resolved_at: null });
    expect(ack.body.acknowledged_at).toBeGreaterThan(0);
    const again = await post<TError>(alertPaths.acknowledge(id), vendor.token);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(AlertErrorCode.AlreadyAcknowledged);
    const res = await post<TAlert>(alertPaths.resolve(id), user.token);
    expect(res.body).toMatchObject({
      state: 'resolved',
      resolved_by: user.email,
      resolved_reason: 'manual',
      acknowledged_by: vendor.email,
    });
    for (const action of ['acknowledge', 'resolve'] as const) {
      const late = await post<TError>(alertPaths[action](id), vendor.token);
      expect(late.status).toBe(409);
      expect(late.body.code).toBe(AlertErrorCode.AlreadyResolved);
    }
    // An open alert may be resolved without being acknowledged first.
    const direct = await insertAlert(server.ctx.db, mine.devices[0].id);
    expect((await post<TAlert>(alertPaths.resolve(direct), vendor.token)).body.state).toBe('resolved');
  });

  it('documents every route in /openapi.json', async () => {
    const res = await server.api<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(res.status).toBe(200);
    for (const path of Object.values(alertPaths).map((p) => (typeof p === 'string' ? p : p(0).replace('/0/', '/{id}/')))) {
      expect(Object.keys(res.body.paths)).toContain(path);
    }
  });

  it('bad ids are 400, not 500', async () => {
    expect((await post(`${alertPaths.alerts}/abc/acknowledge`, vendor.token)).status).toBe(400);
    expect((await post(`${alertPaths.alerts}/0/resolve`, vendor.token)).status).toBe(400);
  });

  it(`the dashboard answers the latest ${ALERTS_LATEST_MAX}, newest first, any state`, async () => {
    const base = Date.now() + 60_000;
    const ids: number[] = [];
    for (let i = 0; i < ALERTS_LATEST_MAX + 5; i += 1) {
      ids.push(
        await insertAlert(server.ctx.db, mine.devices[2].id, {
          firstSeenAt: base + i,
          state: i % 3 === 0 ? 'resolved' : 'open',
          ruleId: 500 + i,
        }),
      );
    }
    const dash = (await get<TAlertDashboard>(alertPaths.dashboard, vendor.token)).body;
    expect(dash.data).toHaveLength(ALERTS_LATEST_MAX);
    expect(idsOf(dash)).toEqual(ids.slice(-ALERTS_LATEST_MAX).reverse());
    expect(new Set(dash.data.map((a) => a.state))).toEqual(new Set(['open', 'resolved']));
  });
});
