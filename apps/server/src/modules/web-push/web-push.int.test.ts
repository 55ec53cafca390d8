/**
 * Web Push end to end on the server (docs/decisions/device-control.md "Push switch"): a browser registers its
 * subscription, turns the device's push switch on, and an alert of that device reaches it — the local push service
 * verifies the VAPID signature and decrypts the payload; a push service answering 410 removes the subscription; an
 * outage is retried until the message gets through; the switch off, nothing is sent; endpoints off the known push
 * services are refused.
 */
import { deviceControlPaths, webPushPaths, type TWebPushKey, type TWebPushPayload } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorise, buildDeviceProject, type TBuiltProject } from '../../../test/device-factory.js';
import { startFakePushService, type TFakePushService } from '../../../test/fake-push-service.js';
import { TEST_DB_KIND } from '../../../test/helpers.js';
import { startTwoTenants, type TTwoTenants } from '../../../test/tenants.js';
import { until } from '../../../test/until.js';
import { webPushOutbox, webPushSubscriptions } from '../../db/schema.js';
import { insertAlert } from '../alerts/alerts.fixtures.js';
import { createRuleNotifier } from '../notifications/dispatch.js';
import { notificationOf } from '../notifications/notify.fixtures.js';

/** Waits until `check` holds (until() answers the first value that is not undefined). */
const holds = (check: () => Promise<boolean> | boolean, timeoutMs?: number) =>
  until(async () => ((await check()) ? true : undefined), timeoutMs);

describe(`Web Push to the console (${TEST_DB_KIND})`, () => {
  let push: TFakePushService;
  let cast: TTwoTenants;
  let project: TBuiltProject;
  const register = (token: string, body: unknown) => cast.server.api('POST', webPushPaths.subscriptions, { token, body });
  const setSwitch = (token: string, tangramId: string, enabled: boolean) =>
    cast.server.api('PUT', deviceControlPaths.fcmStatus, { token, body: { tangram_id: tangramId, enabled } });
  const alertOn = async (deviceIndex: number) => {
    const device = project.devices[deviceIndex];
    const alertId = await insertAlert(cast.server.ctx.db, device.id, { level: 'alert' });
    await createRuleNotifier(cast.server.ctx).notify(notificationOf(project, device.id, alertId, 'alert', { projectEmail: false }));
    return alertId;
  };

  beforeAll(async () => {
    push = await startFakePushService();
    cast = await startTwoTenants({ webPushOrigins: [push.origin], publicUrl: 'https://console.example.com' });
    project = await buildDeviceProject(cast.server.ctx.db, { tenantId: cast.vendor.tenantId, count: 2 });
    for (const d of project.devices) await authorise(cast.server.ctx.db, d.id, cast.user.accountId);
  });
  afterAll(async () => {
    await cast?.server.stop();
    await push?.stop();
  });

  it('serves the VAPID public key to logged-in accounts only', async () => {
    expect((await cast.server.api('GET', webPushPaths.key)).status).toBe(401);
    const key = await cast.server.api<TWebPushKey>('GET', webPushPaths.key, { token: cast.user.token });
    expect(key.status).toBe(200);
    expect(Buffer.from(key.body.public_key, 'base64url')).toHaveLength(65);
  });

  it('refuses an endpoint that is not a known push service, and registration without a login', async () => {
    const keys = push.subscriber('x').keys;
    expect((await cast.server.api('POST', webPushPaths.subscriptions, { body: { endpoint: `${push.origin}/push/x`, keys } })).status).toBe(
      401,
    );
    for (const endpoint of ['http://169.254.169.254/latest/meta-data', 'https://fcm.googleapis.com.evil.test/x', 'not a url']) {
      expect((await register(cast.user.token, { endpoint, keys })).status, endpoint).toBe(400);
    }
  });

  it('delivers an alert of a device whose switch is on, signed with VAPID and encrypted for the browser', async () => {
    const browser = push.subscriber('laptop');
    expect((await register(cast.user.token, browser)).status).toBe(201);
    expect((await setSwitch(cast.user.token, project.devices[0].tangramId, true)).status).toBe(200);
    const alertId = await alertOn(0);
    const got = await until(async () => push.received.find((r) => r.path === '/push/laptop'));
    expect(got.vapid).toMatchObject({ aud: push.origin, sub: 'mailto:no-reply@tessera.local' });
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(got.headers.ttl)).toBe(86_400);
    const payload = JSON.parse(got.plaintext) as TWebPushPayload;
    expect(payload.title).toMatch(/^\[Tessera\]\[警報\] Too hot — dev /);
    expect(payload.body).toContain('temperature above 30');
    expect(payload.url).toBe(`https://console.example.com/alerts/history?device=${project.devices[0].tangramId}`);
    expect(payload.tag).toBe(`alert-${alertId}`);
    await holds(async () => {
      const [row] = await cast.server.ctx.db.select().from(webPushOutbox).where(eq(webPushOutbox.alertId, alertId));
      return row?.status === 'sent';
    });
  });

  it('sends nothing for a device whose switch is off', async () => {
    const before = push.received.length;
    const alertId = await alertOn(1);
    expect(await cast.server.ctx.db.select().from(webPushOutbox).where(eq(webPushOutbox.alertId, alertId))).toHaveLength(0);
    expect(push.received.length).toBe(before);
  });

  it('retries through a push-service outage without losing the message', async () => {
    push.nextStatus = 503;
    const before = push.received.length;
    const alertId = await alertOn(0);
    await holds(() => push.received.length > before);
    const [pending] = await cast.server.ctx.db.select().from(webPushOutbox).where(eq(webPushOutbox.alertId, alertId));
    await holds(async () => {
      const [row] = await cast.server.ctx.db.select().from(webPushOutbox).where(eq(webPushOutbox.id, pending.id));
      return row.attempts >= 1 && row.status === 'pending';
    });
    push.nextStatus = 201;
    await holds(async () => {
      const [row] = await cast.server.ctx.db.select().from(webPushOutbox).where(eq(webPushOutbox.id, pending.id));
      return row.status === 'sent';
    }, 15_000);
  });

  it('removes a subscription the push service says is gone (410)', async () => {
    push.nextStatus = 410;
    const alertId = await alertOn(0);
    await holds(async () => {
      const [row] = await cast.server.ctx.db.select().from(webPushOutbox).where(eq(webPushOutbox.alertId, alertId));
      return row?.status === 'gone';
    });
    expect(
      await cast.server.ctx.db.select().from(webPushSubscriptions).where(eq(webPushSubscriptions.accountId, cast.user.accountId)),
    ).toHaveLength(0);
    push.nextStatus = 201;
  });
});
