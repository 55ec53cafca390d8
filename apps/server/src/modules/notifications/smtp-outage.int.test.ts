import { until } from '../../../test/until.js';
import { notificationPaths, type TAlertDeliveries } from '@tessera/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeviceProject } from '../../../test/device-factory.js';
import { buildVendor, uniqueEmail, type TBuiltAccount } from '../../../test/factories.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { outboxEmails } from '../../db/schema.js';
import { backoffMs } from '../mail/outbox-worker.js';
import { putNotificationEmails } from '../project-settings/notification-emails.js';
import { startSmtpSink, type TSmtpSink } from '../mail/smtp-sink.fixture.js';
import { createRuleNotifier } from './dispatch.js';
import { notificationOf } from './notify.fixtures.js';
import { insertAlert } from '../alerts/alerts.fixtures.js';

describe(`alert mail while the SMTP server is down (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  let smtp: TSmtpSink;
  let vendor: TBuiltAccount;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ smtpUrl: smtp.url });
    vendor = await buildVendor(server);
  });
  afterAll(async () => {
    await server.stop();
    await smtp.stop();
  });

  it('loses nothing: the mail stays pending with its error, and arrives once SMTP is back on the same port', async () => {
    const port = smtp.port;
    const down = smtp;
    await down.stop();

    const p = await buildDeviceProject(server.ctx.db, { tenantId: vendor.tenantId });
    const to = uniqueEmail('oncall');
    await putNotificationEmails(server.ctx.db, vendor.tenantId, p.projectId, { emails: [to] });
    const alertId = await insertAlert(server.ctx.db, p.devices[0].id, { level: 'alert' });
    await createRuleNotifier(server.ctx).notify(notificationOf(p, p.devices[0].id, alertId, 'alert'));

    const failed = await until(async () => {
      const [row] = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.alertId, alertId));
      return row && row.attempts >= 1 ? row : undefined;
    }, 15_000);
    expect(failed.status).toBe('pending');
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.sentAt).toBeNull();
    expect(down.mails).toEqual([]);
    // The console sees it the same way.
    const pending = await server.api<TAlertDeliveries>('GET', notificationPaths.alertDeliveries(alertId), { token: vendor.token });
    expect(pending.body.data).toEqual([
      expect.objectContaining({
        channel: 'email',
        to,
        status: 'pending',
        attempts: failed.attempts,
        last_error: failed.lastError,
        sent_at: null,
      }),
    ]);

    // Back up on the same port: the worker's own backoff (1 s, 2 s, … — no shortcut) brings the mail.
    smtp = await startSmtpSink(port);
    const started = Date.now();
    const mail = await smtp.waitFor((m) => m.to.includes(to), 15_000);
    expect(mail.subject).toContain('[警報]');
    expect(Date.now() - started).toBeLessThanOrEqual(backoffMs(failed.attempts + 2) + 2_000);
    const sent = await until(async () => {
      const [row] = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.alertId, alertId));
      return row.status === 'sent' ? row : undefined;
    }, 15_000);
    expect(sent.attempts).toBeGreaterThanOrEqual(1);
    expect(sent.sentAt).toBeGreaterThan(0);
    const delivered = await server.api<TAlertDeliveries>('GET', notificationPaths.alertDeliveries(alertId), { token: vendor.token });
    expect(delivered.body.data[0]).toMatchObject({ to, status: 'sent', sent_at: sent.sentAt });
  });
});
