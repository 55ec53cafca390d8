import { alertPaths, topics, ZLiveAlertMessage, type TLiveAlertMessage } from '@tessera/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { buildAccount, buildUser, buildVendor, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { connectBrowser, subscribeGranted, waitUntil } from '../ingest/ingest-test-kit.js';
import { grantByRole, insertAlert, insertAppRule } from './alerts.fixtures.js';
import { publishAlertChange } from './publish.js';

describe(`live alerts and their ACL (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let vendor: TBuiltAccount;
  let admin: TBuiltAccount;
  let direct: TBuiltAccount;
  let byRole: TBuiltAccount;
  let bystander: TBuiltAccount;
  let other: TBuiltAccount;
  let mine: TBuiltProject;
  const clients: MqttClient[] = [];
  const inbox = new Map<number, TLiveAlertMessage[]>();

  /** A browser of `account` subscribed to its own alerts topic, collecting what arrives. */
  async function listen(account: TBuiltAccount): Promise<MqttClient> {
    const browser = await connectBrowser(server.wsUrl, account.token);
    clients.push(browser);
    inbox.set(account.accountId, []);
    browser.on('message', (_t, payload) => inbox.get(account.accountId)!.push(ZLiveAlertMessage.parse(JSON.parse(payload.toString()))));
    expect(await subscribeGranted(browser, [topics.liveAlerts(account.accountId)])).toEqual([1]);
    return browser;
  }
  const received = (a: TBuiltAccount, alertId: number) => (inbox.get(a.accountId) ?? []).filter((m) => m.alert.id === alertId);

  beforeAll(async () => {
    server = await startTestServer();
    vendor = await buildVendor(server);
    admin = await buildAccount(server, { level: 'admin', tenantId: vendor.tenantId });
    direct = await buildUser(server, vendor.tenantId);
    byRole = await buildUser(server, vendor.tenantId);
    bystander = await buildUser(server, vendor.tenantId);
    other = await buildVendor(server);
    mine = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId, count: 2 });
    await authorise(server.ctx.db, mine.devices[0].id, direct.accountId);
    await grantByRole(server.ctx.db, mine.devices[0].id, byRole.accountId);
    for (const a of [vendor, admin, direct, byRole, bystander, other]) await listen(a);
  });
  afterAll(async () => {
    for (const c of clients) await c.endAsync(true).catch(() => undefined);
    await server.stop();
  });

  it("refuses another account's alerts topic and every wildcard", async () => {
    const browser = clients[0];
    const granted = await subscribeGranted(browser, [
      topics.liveAlerts(direct.accountId),
      topics.liveAlerts(other.accountId),
      'live/accounts/+/alerts',
      `live/accounts/${vendor.accountId}/+`,
      `live/accounts/${vendor.accountId}/#`,
      'live/accounts/#',
      'live/#',
      '#',
      `live/accounts/0${vendor.accountId}/alerts`,
    ]);
    expect(granted).toEqual([128, 128, 128, 128, 128, 128, 128, 128, 128]);
  });

  it('sends an alert to every account that may see its device, and to nobody else', async () => {
    const id = await insertAlert(server.ctx.db, mine.devices[0].id, { message: 'hot', level: 'early_warning' });
    await publishAlertChange(server.ctx, id);
    for (const a of [vendor, admin, direct, byRole]) await waitUntil(() => received(a, id).length === 1);
    const msg = received(direct, id)[0];
    expect(msg.topic).toBe(topics.liveAlerts(direct.accountId));
    expect(msg.alert).toMatchObject({
      id,
      message: 'hot',
      level: 'early_warning',
      state: 'open',
      device: { tangram_id: mine.devices[0].tangramId },
    });
    // QoS 0 and no more to come: give a stray message a moment to show up before asserting none came.
    await new Promise((r) => setTimeout(r, 300));
    expect(received(bystander, id)).toEqual([]);
    expect(received(other, id)).toEqual([]);
  });

  it("a device nobody was granted reaches only the tenant's vendors and admins", async () => {
    const id = await insertAlert(server.ctx.db, mine.devices[1].id);
    await publishAlertChange(server.ctx, id);
    for (const a of [vendor, admin]) await waitUntil(() => received(a, id).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    for (const a of [direct, byRole, bystander, other]) expect(received(a, id)).toEqual([]);
  });

  it("an app rule's alert reaches only the rule's owner", async () => {
    const ruleId = await insertAppRule(server.ctx.db, mine.devices[0].id, direct.accountId);
    const id = await insertAlert(server.ctx.db, mine.devices[0].id, { ruleKind: 'app', ruleId, ruleName: 'my rule' });
    await publishAlertChange(server.ctx, id);
    await waitUntil(() => received(direct, id).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    for (const a of [vendor, admin, byRole, bystander, other]) expect(received(a, id)).toEqual([]);
  });

  it('acknowledging and resolving through the API publish the changed alert', async () => {
    const id = await insertAlert(server.ctx.db, mine.devices[0].id);
    const ack = await server.api('POST', alertPaths.acknowledge(id), { token: direct.token });
    expect(ack.status).toBe(200);
    await waitUntil(() => received(vendor, id).length === 1);
    expect(received(vendor, id)[0].alert).toMatchObject({ state: 'acknowledged', acknowledged_by: direct.email });
    await server.api('POST', alertPaths.resolve(id), { token: vendor.token });
    await waitUntil(() => received(byRole, id).length === 2);
    expect(received(byRole, id)[1].alert).toMatchObject({ state: 'resolved', resolved_by: vendor.email, resolved_reason: 'manual' });
  });

  it('never throws: a missing alert is ignored, a failing broker is logged', async () => {
    await expect(publishAlertChange(server.ctx, 987_654)).resolves.toBeUndefined();
    const id = await insertAlert(server.ctx.db, mine.devices[1].id);
    const brokenBus = { ...server.ctx.bus, publish: () => Promise.reject(new Error('broker down')) };
    await expect(publishAlertChange({ ...server.ctx, bus: brokenBus }, id)).resolves.toBeUndefined();
  });
});
