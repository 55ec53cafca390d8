/**
 * The platform-rule alert views (`/rule-engine/v1/alerts/…`, docs/platform-rules.md "Alerts") and what users granted
 * the section may read: only platform alerts, only the tenant's, for users only those of devices they may see.
 */
import {
  DEFAULT_FEATURES,
  platformRulePaths as p,
  type TAlertDashboard,
  type TAlertList,
  type TPlatformAlertSummary,
  type TPlatformRule,
  type TPlatformRuleList,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { authorise, buildDeviceProject, type TBuiltDevice, type TBuiltProject } from '../../../test/device-factory.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { insertAlert } from '../alerts/alerts.fixtures.js';
import { overheating } from './platform-rules.fixtures.js';

describe(`platform-rule alerts and users (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let project: TBuiltProject;

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const api = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, token = vendor.token) =>
    server.api<T>(method, url, { token, body });

  it('serves the platform-rule alerts: dashboard, summary and history hold only platform alerts of the tenant', async () => {
    const device = project.devices[0] as TBuiltDevice;
    const now = Date.now();
    await insertAlert(server.ctx.db, device.id, { ruleKind: 'simple', message: 'a project rule' });
    const ruleA = 900_001;
    const ruleB = 900_002;
    await insertAlert(server.ctx.db, device.id, {
      ruleKind: 'platform',
      ruleId: ruleA,
      ruleName: 'A',
      level: 'remind',
      firstSeenAt: now - 2_000,
    });
    await insertAlert(server.ctx.db, device.id, {
      ruleKind: 'platform',
      ruleId: ruleA,
      ruleName: 'A',
      level: 'alert',
      state: 'resolved',
      resolvedAt: now,
      firstSeenAt: now - 3_000,
    });
    await insertAlert(server.ctx.db, device.id, {
      ruleKind: 'platform',
      ruleId: ruleB,
      ruleName: 'B',
      level: 'early_warning',
      firstSeenAt: now - 1_000,
    });

    const dashboard = (await api<TAlertDashboard>('GET', p.alertsDashboard)).body.data;
    expect(dashboard.length).toBeGreaterThanOrEqual(3);
    expect(dashboard.every((a) => a.rule.kind === 'platform')).toBe(true);
    const ofA = (await api<TAlertDashboard>('GET', `${p.alertsDashboard}?rule_id=${ruleA}`)).body.data;
    expect(ofA.map((a) => [a.rule.name, a.level, a.state])).toEqual([
      ['A', 'remind', 'open'],
      ['A', 'alert', 'resolved'],
    ]);

    const history = (await api<TAlertList>('GET', `${p.alertsHistory}?rule_id=${ruleB}`)).body;
    expect(history.total_items).toBe(1);
    expect(history.data[0]).toMatchObject({ level: 'early_warning', rule: { kind: 'platform', id: ruleB, name: 'B' } });
    expect((await api('GET', `${p.alertsHistory}?rule_kind=simple`)).status).toBe(200);
    expect(
      (await api<TAlertList>('GET', `${p.alertsHistory}?from=${now - 5_000}`)).body.data.every((a) => a.rule.kind === 'platform'),
    ).toBe(true);

    const summary = (await api<TPlatformAlertSummary>('GET', `${p.alertsSummary}?from=${now - 5_000}&to=${now}`)).body;
    expect(summary).toMatchObject({ total: 3, active: 2, by_level: { remind: 1, early_warning: 1, alert: 1 } });
    expect(summary.by_rule).toEqual([
      { id: ruleA, name: 'A', count: 2, active: 1 },
      { id: ruleB, name: 'B', count: 1, active: 1 },
    ]);
    expect((await api('GET', `${p.alertsSummary}?from=${now}&to=${now - 1}`)).status).toBe(400);

    const other = await buildVendor(server);
    expect((await api<TAlertDashboard>('GET', p.alertsDashboard, undefined, other.token)).body.data).toEqual([]);
    expect((await api<TPlatformAlertSummary>('GET', p.alertsSummary, undefined, other.token)).body).toMatchObject({
      total: 0,
      by_rule: [],
    });
  });

  it('users granted the section read the rule list and the alerts of their own devices, and nothing else', async () => {
    const created = await api<TPlatformRule>('POST', p.rules, { name: 'read by users', draft: overheating(project.projectId) });
    const device = project.devices[0] as TBuiltDevice;
    const hidden = project.devices[1] as TBuiltDevice;
    const ruleId = 900_100;
    await insertAlert(server.ctx.db, device.id, { ruleKind: 'platform', ruleId, ruleName: 'seen' });
    await insertAlert(server.ctx.db, hidden.id, { ruleKind: 'platform', ruleId, ruleName: 'seen' });
    const user = await buildAccount(server, { level: 'user', tenantId: vendor.tenantId, fea: [...DEFAULT_FEATURES.user, '11'] });
    await authorise(server.ctx.db, device.id, user.accountId);

    const list = await api<TPlatformRuleList>('GET', `${p.rules}?q=read by users`, undefined, user.token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((r) => r.name)).toEqual(['read by users']);
    const mine = (await api<TAlertDashboard>('GET', `${p.alertsDashboard}?rule_id=${ruleId}`, undefined, user.token)).body.data;
    expect(mine.map((a) => a.device.tangram_id)).toEqual([device.tangramId]);
    const summary = (await api<TPlatformAlertSummary>('GET', p.alertsSummary, undefined, user.token)).body;
    expect(summary.by_rule.find((r) => r.id === ruleId)?.count).toBe(1);

    for (const [method, url] of [
      ['GET', p.rule(created.body.id)],
      ['PUT', p.rule(created.body.id)],
      ['DELETE', p.rule(created.body.id)],
      ['POST', p.rules],
      ['POST', p.action(created.body.id, 'apply')],
      ['POST', p.action(created.body.id, 'start')],
      ['GET', p.logs(created.body.id)],
      ['GET', p.metrics],
      ['GET', p.engineConfig],
    ] as const) {
      expect((await api(method, url, { name: 'x' }, user.token)).status, `${method} ${url}`).toBe(403);
    }
    expect((await api('DELETE', p.rule(created.body.id))).status).toBe(204);
  });
});
