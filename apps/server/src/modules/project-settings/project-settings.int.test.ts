import { NOTIFICATION_EMAILS_MAX, paths, settingsPaths, type TFeeEstimate, type TProject, type TProvisioning } from '@tessera/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, buildVendor, uniqueEmail, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { accounts, outboxEmails, projectSensors } from '../../db/schema.js';
import { freePort, startSmtpSink, type TSmtpSink } from '../mail/smtp-sink.fixture.js';
import { createProjectVia, registerVia } from '../projects/catalogue.fixtures.js';

describe(`project settings (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let smtp: TSmtpSink;
  let vendor: TBuiltAccount;
  let user: TBuiltAccount;
  let other: TBuiltAccount;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ smtpUrl: smtp.url, mqttPort: await freePort() });
    vendor = await buildVendor(server);
    user = await buildUser(server, vendor.tenantId);
    other = await buildVendor(server);
  });
  afterAll(async () => {
    await server.stop();
    await smtp.stop();
  });

  const emailsOf = async (token: string, id: number) =>
    server.api<{ emails: string[] }>('GET', settingsPaths.notificationEmails(id), { token });
  const putEmails = (token: string, id: number, emails: unknown) =>
    server.api<{ emails: string[]; code?: string }>('PUT', settingsPaths.notificationEmails(id), { token, body: { emails } });

  describe('every route: 401 without a token, 403 for a user, 200 for the vendor, 404 for another vendor', () => {
    const routes: [string, (p: TProject) => string, ((p: TProject) => unknown)?][] = [
      ['GET', (p) => settingsPaths.notificationEmails(p.id)],
      ['PUT', (p) => settingsPaths.notificationEmails(p.id), () => ({ emails: ['ops@example.com'] })],
      ['POST', () => settingsPaths.notificationEmailTest, (p) => ({ project_id: p.id })],
      ['GET', (p) => settingsPaths.provisioning(p.id)],
      ['GET', (p) => settingsPaths.feeEstimate(p.id)],
    ];
    for (const [method, url, body] of routes) {
      it(`${method} ${url({ id: 1 } as TProject)}`, async () => {
        const project = await createProjectVia(server, vendor.token);
        expect((await putEmails(vendor.token, project.id, ['first@example.com'])).status).toBe(200);
        const opts = { body: body?.(project) };
        const m = method as 'GET';
        expect((await server.api(m, url(project), opts)).status).toBe(401);
        expect((await server.api(m, url(project), { ...opts, token: user.token })).status).toBe(403);
        const foreign = await server.api<{ code: string }>(m, url(project), { ...opts, token: other.token });
        expect(foreign.status).toBe(404);
        expect(foreign.body.code).toBe('NOT_FOUND');
        const ok = await server.api(m, url(project), { ...opts, token: vendor.token });
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      });
    }
  });

  it('saves the list lower-cased in order; another vendor neither reads nor changes it', async () => {
    const project = await createProjectVia(server, vendor.token);
    expect((await emailsOf(vendor.token, project.id)).body).toEqual({ emails: [] });
    const saved = await putEmails(vendor.token, project.id, ['Ops@Example.com', 'night@example.com']);
    expect(saved.body).toEqual({ emails: ['ops@example.com', 'night@example.com'] });
    expect((await putEmails(other.token, project.id, ['intruder@example.com'])).status).toBe(404);
    expect((await emailsOf(vendor.token, project.id)).body.emails).toEqual(['ops@example.com', 'night@example.com']);
    expect((await putEmails(vendor.token, project.id, [])).body).toEqual({ emails: [] });
  });

  it('refuses an invalid, a case-only duplicate or an over-long list with 400, writing nothing', async () => {
    const project = await createProjectVia(server, vendor.token);
    await putEmails(vendor.token, project.id, ['keep@example.com']);
    const full = Array.from({ length: NOTIFICATION_EMAILS_MAX }, (_, i) => `n${i}@example.com`);
    for (const bad of [['not-an-email'], ['a@example.com', 'A@EXAMPLE.com'], [...full, 'one-more@example.com'], 'x', [42]]) {
      const res = await putEmails(vendor.token, project.id, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect((await emailsOf(vendor.token, project.id)).body.emails).toEqual(['keep@example.com']);
    }
    expect((await putEmails(vendor.token, project.id, full)).body.emails).toHaveLength(NOTIFICATION_EMAILS_MAX);
  });

  it('sends a real test mail to every address through SMTP, in the caller’s language', async () => {
    const project = await createProjectVia(server, vendor.token, 'Boiler room');
    const [zh, en] = [uniqueEmail('zh'), uniqueEmail('en')];
    await putEmails(vendor.token, project.id, [zh]);
    const sent = await server.api('POST', settingsPaths.notificationEmailTest, { token: vendor.token, body: { project_id: project.id } });
    expect(sent).toMatchObject({ status: 200, body: { queued: 1 } });
    const zhMail = await smtp.waitFor((m) => m.to.includes(zh));
    expect(zhMail.subject).toBe('Tessera 測試通知：Boiler room');
    expect(zhMail.text).toContain(vendor.email);

    await server.ctx.db.update(accounts).set({ language: 'en' }).where(eq(accounts.id, vendor.accountId));
    await putEmails(vendor.token, project.id, [zh, en]);
    const again = await server.api('POST', settingsPaths.notificationEmailTest, { token: vendor.token, body: { project_id: project.id } });
    expect(again.body).toEqual({ queued: 2 });
    const enMail = await smtp.waitFor((m) => m.to.includes(en));
    expect(enMail.subject).toBe('Tessera test notification: Boiler room');
    // The console's current language wins over the saved one.
    const zh2 = uniqueEmail('zh2');
    await putEmails(vendor.token, project.id, [zh2]);
    await server.api('POST', settingsPaths.notificationEmailTest, {
      token: vendor.token,
      body: { project_id: project.id },
      headers: { 'accept-language': 'zh-TW' },
    });
    expect((await smtp.waitFor((m) => m.to.includes(zh2))).subject).toBe('Tessera 測試通知：Boiler room');
    const rows = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, zh));
    expect(rows).toHaveLength(2);
  });

  it('refuses a test mail for an empty list or a bad project id', async () => {
    const project = await createProjectVia(server, vendor.token);
    const empty = await server.api<{ code: string }>('POST', settingsPaths.notificationEmailTest, {
      token: vendor.token,
      body: { project_id: project.id },
    });
    expect(empty.status).toBe(400);
    for (const body of [{}, { project_id: 'x' }, { project_id: 0 }]) {
      expect((await server.api('POST', settingsPaths.notificationEmailTest, { token: vendor.token, body })).status).toBe(400);
    }
  });

  it('shows provisioning from the request host and the broker’s MQTT_PORT', async () => {
    const project = await createProjectVia(server, vendor.token);
    const res = await server.api<TProvisioning>('GET', settingsPaths.provisioning(project.id), {
      token: vendor.token,
      headers: { host: 'iot.example.com:8080' },
    });
    expect(res.body).toMatchObject({ source: 'request', host: 'iot.example.com', port: server.mqttPort, tls: false });
    expect(server.mqttPort).toBeGreaterThan(0);
    expect(res.body.topics.telemetry).toBe('devices/{id}/telemetry');
  });

  it('estimates the fee from the project’s sensors and devices, and follows their changes', async () => {
    const project = await createProjectVia(server, vendor.token);
    const db = server.ctx.db;
    await db.delete(projectSensors).where(eq(projectSensors.projectId, project.id));
    await db.insert(projectSensors).values([
      { projectId: project.id, key: 'a', name: 'A', uploadPeriodMs: 1_000 },
      { projectId: project.id, key: 'b', name: 'B', uploadPeriodMs: 10_000 },
      { projectId: project.id, key: 'c', name: 'C', uploadPeriodMs: 0 },
    ]);
    const fee = async () => (await server.api<TFeeEstimate>('GET', settingsPaths.feeEstimate(project.id), { token: vendor.token })).body;
    expect((await fee()).messages_per_month).toBe(0);
    for (const serial of ['A1', 'A2', 'A3', 'A4', 'A5']) await registerVia(server, vendor.token, project.id, serial);
    const five = await fee();
    expect(five).toMatchObject({ devices: 5, messages_per_month: 14_256_000, cost: { total: 234.04 } });
    await db
      .update(projectSensors)
      .set({ enabled: false })
      .where(and(eq(projectSensors.projectId, project.id), eq(projectSensors.key, 'a')));
    expect((await fee()).messages_per_month).toBe(1_296_000);
  });

  it('starts a copied project with an empty notification list', async () => {
    const project = await createProjectVia(server, vendor.token);
    await putEmails(vendor.token, project.id, ['ops@example.com']);
    const copy = await server.api<TProject>('POST', paths.projectCopy, { token: vendor.token, body: { id: project.id, name: 'Copy' } });
    expect((await emailsOf(vendor.token, copy.body.id)).body.emails).toEqual([]);
  });
});
