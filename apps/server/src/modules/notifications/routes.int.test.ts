import {
  notificationPaths,
  type TAlertDeliveries,
  type TDeviceSubscription,
  type TSubscription,
  type TSubscriptionList,
} from '@tessera/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount, buildUser, uniqueEmail, type TBuiltAccount } from '../../../test/factories.js';
import { startTwoTenants } from '../../../test/tenants.js';
import type { TTestServer } from '../../../test/helpers.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { putNotificationEmails } from '../project-settings/notification-emails.js';
import { createRuleNotifier } from './dispatch.js';
import { notificationOf } from './notify.fixtures.js';
import { insertAlert } from '../alerts/alerts.fixtures.js';

describe(`notification routes (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let other: TBuiltAccount;
  let noAlerts: TBuiltAccount;
  let project: TBuiltProject;
  beforeAll(async () => {
    ({ server, vendor, user, other } = await startTwoTenants());
    noAlerts = await buildAccount(server, { level: 'vendor', tenantId: vendor.tenantId, fea: ['3', '4'] });
    project = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    await authorise(server.ctx.db, project.devices[0].id, user.accountId);
  });
  afterAll(() => server.stop());

  const settings = { levels: ['alert', 'remind'], channels: ['email'] };

  describe('every route: 401 without a token, 403 without the alerts feature, 404 for another tenant, 200/204 for the owner', () => {
    const routes: [string, string, () => string, unknown?][] = [
      ['GET', 'subscriptions', () => notificationPaths.subscriptions],
      ['GET', 'device/{tangramId}', () => notificationPaths.device(project.devices[0].tangramId)],
      ['PUT', 'device/{tangramId}', () => notificationPaths.device(project.devices[0].tangramId), settings],
      ['DELETE', 'device/{tangramId}', () => notificationPaths.device(project.devices[0].tangramId)],
      ['GET', 'project/{id}', () => notificationPaths.project(project.projectId)],
      ['PUT', 'project/{id}', () => notificationPaths.project(project.projectId), settings],
      ['DELETE', 'project/{id}', () => notificationPaths.project(project.projectId)],
    ];
    for (const [method, name, url, body] of routes) {
      it(`${method} ${name}`, async () => {
        const m = method as 'GET';
        expect((await server.api(m, url(), { body })).status).toBe(401);
        expect((await server.api(m, url(), { body, token: noAlerts.token })).status).toBe(403);
        if (!url().endsWith('subscriptions')) {
          const foreign = await server.api<{ code: string }>(m, url(), { body, token: other.token });
          expect(foreign.status).toBe(404);
          expect(foreign.body.code).toBe('NOT_FOUND');
        }
        const ok = await server.api(m, url(), { body, token: vendor.token });
        expect(ok.status, JSON.stringify(ok.body)).toBe(method === 'DELETE' ? 204 : 200);
      });
    }

    it('GET alerts/{id}/deliveries', async () => {
      const alertId = await insertAlert(server.ctx.db, project.devices[0].id, { level: 'alert' });
      const url = notificationPaths.alertDeliveries(alertId);
      expect((await server.api('GET', url)).status).toBe(401);
      expect((await server.api('GET', url, { token: noAlerts.token })).status).toBe(403);
      expect((await server.api('GET', url, { token: other.token })).status).toBe(404);
      expect((await server.api('GET', notificationPaths.alertDeliveries(alertId + 10_000), { token: vendor.token })).status).toBe(404);
      const ok = await server.api<TAlertDeliveries>('GET', url, { token: vendor.token });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ data: [] });
    });
  });

  it('keeps a device subscription, shows the project one it inherits, and forgets it on DELETE', async () => {
    const d = project.devices[1];
    const empty = await server.api<TDeviceSubscription>('GET', notificationPaths.device(d.tangramId.toLowerCase()), {
      token: vendor.token,
    });
    expect(empty.body).toMatchObject({ scope: 'device', saved: false, levels: [], channels: [], inherited: null });
    expect(empty.body.device).toEqual({ tangram_id: d.tangramId, name: expect.any(String) });

    await server.api('PUT', notificationPaths.project(project.projectId), {
      token: vendor.token,
      body: { levels: ['alert'], channels: ['email', 'line'] },
    });
    const put = await server.api<TDeviceSubscription>('PUT', notificationPaths.device(d.tangramId), {
      token: vendor.token,
      body: { levels: ['early_warning'], channels: ['line'] },
    });
    expect(put.body).toMatchObject({ saved: true, levels: ['early_warning'], channels: ['line'] });
    expect(put.body.inherited).toMatchObject({ scope: 'project', levels: ['alert'], channels: ['email', 'line'] });
    const again = await server.api<TDeviceSubscription>('GET', notificationPaths.device(d.tangramId), { token: vendor.token });
    expect(again.body).toEqual(put.body);

    const list = await server.api<TSubscriptionList>('GET', notificationPaths.subscriptions, { token: vendor.token });
    expect(list.body.data.map((s) => [s.scope, s.device?.tangram_id ?? s.project.id])).toEqual([
      ['project', project.projectId],
      ['device', d.tangramId],
    ]);

    expect((await server.api('DELETE', notificationPaths.device(d.tangramId), { token: vendor.token })).status).toBe(204);
    const after = await server.api<TDeviceSubscription>('GET', notificationPaths.device(d.tangramId), { token: vendor.token });
    expect(after.body).toMatchObject({ saved: false, inherited: { levels: ['alert'] } });
  });

  it('refuses unknown levels, unknown channels and duplicates with 400', async () => {
    const url = notificationPaths.project(project.projectId);
    for (const body of [
      { levels: ['panic'], channels: [] },
      { levels: [], channels: ['sms'] },
      { levels: ['alert', 'alert'], channels: [] },
      {},
    ]) {
      const res = await server.api<{ code: string }>('PUT', url, { token: vendor.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBeTruthy();
    }
  });

  it('lets a user subscribe only to devices and projects it may see (404 otherwise), each account its own', async () => {
    const [seen, unseen] = project.devices;
    expect((await server.api('GET', notificationPaths.device(unseen.tangramId), { token: user.token })).status).toBe(404);
    const put = await server.api<TDeviceSubscription>('PUT', notificationPaths.device(seen.tangramId), {
      token: user.token,
      body: settings,
    });
    expect(put.status).toBe(200);
    expect((await server.api<TSubscription>('GET', notificationPaths.project(project.projectId), { token: user.token })).status).toBe(200);
    const elsewhere = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    expect((await server.api('GET', notificationPaths.project(elsewhere.projectId), { token: user.token })).status).toBe(404);
    // The vendor's own subscription of that device is separate.
    const vendorView = await server.api<TDeviceSubscription>('GET', notificationPaths.device(seen.tangramId), { token: vendor.token });
    expect(vendorView.body.levels).not.toEqual(settings.levels);
    const stranger = await buildUser(server, vendor.tenantId);
    const list = await server.api<TSubscriptionList>('GET', notificationPaths.subscriptions, { token: stranger.token });
    expect(list.body).toEqual({ data: [] });
  });

  it('shows a vendor every delivery of an alert and a user only its own', async () => {
    const d = project.devices[0];
    const listed = uniqueEmail('listed');
    await server.api('DELETE', notificationPaths.project(project.projectId), { token: vendor.token });
    await putNotificationEmails(server.ctx.db, vendor.tenantId, project.projectId, { emails: [listed] });
    await server.api('PUT', notificationPaths.device(d.tangramId), { token: user.token, body: { levels: ['alert'], channels: ['email'] } });
    const alertId = await insertAlert(server.ctx.db, d.id, { level: 'alert' });
    await createRuleNotifier(server.ctx).notify(notificationOf(project, d.id, alertId, 'alert'));

    const all = await server.api<TAlertDeliveries>('GET', notificationPaths.alertDeliveries(alertId), { token: vendor.token });
    expect(all.body.data.map((r) => r.to).sort()).toEqual([listed, user.email].sort());
    // Without SMTP_URL the mail is kept in the outbox: `stored`.
    expect(all.body.data.every((r) => r.channel === 'email' && r.status === 'stored' && r.attempts === 0)).toBe(true);
    const own = await server.api<TAlertDeliveries>('GET', notificationPaths.alertDeliveries(alertId), { token: user.token });
    expect(own.body.data.map((r) => r.to)).toEqual([user.email]);
  });
});
