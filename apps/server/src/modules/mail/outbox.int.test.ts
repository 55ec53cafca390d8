import { until } from '../../../test/until.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema.js';
import { startTestServer, TEST_DB_KIND, type TTestServer } from '../../../test/helpers.js';
import { uniqueEmail } from '../../../test/factories.js';
import { holdPort, startSmtpSink, type THeldPort, type TSmtpSink } from './smtp-sink.fixture.js';
import { OUTBOX } from './outbox-worker.js';

describe(`mail outbox with SMTP_URL (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  /** SMTP's port: held (every connection reset, as by a server that is down) until the sink starts on it. */
  let held: THeldPort;
  let smtp: TSmtpSink | undefined;
  const startSmtp = async () => {
    await held.release();
    return startSmtpSink(held.port);
  };
  beforeAll(async () => {
    held = await holdPort();
    server = await startTestServer({ smtpUrl: `smtp://127.0.0.1:${held.port}` });
  });
  afterAll(async () => {
    await server.stop();
    await smtp?.stop();
    await held.release();
  });

  const rowOf = async (id: number) => (await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.id, id)))[0];

  it('keeps a mail pending with its error while SMTP is down, and delivers it once SMTP is up', async () => {
    const to = uniqueEmail('later');
    await server.ctx.mailer.enqueue({ to, subject: 'Hello 你好', text: 'first line\n第二行' });
    const [queued] = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, to));
    const failedOnce = await until(async () => {
      const row = await rowOf(queued.id);
      return row.attempts >= 1 ? row : undefined;
    });
    expect(failedOnce.status).toBe('pending');
    expect(failedOnce.lastError).toBeTruthy();
    expect(failedOnce.nextAttemptAt).toBeGreaterThan(Date.now() - 1000);

    smtp = await startSmtp();
    // Skip the backoff wait rather than sleep through it.
    await server.ctx.db.update(outboxEmails).set({ nextAttemptAt: 0 }).where(eq(outboxEmails.id, queued.id));
    const mail = await smtp.waitFor((m) => m.to.includes(to));
    expect(mail.subject).toBe('Hello 你好');
    expect(mail.text.trim()).toBe('first line\n第二行');
    const sent = await until(async () => {
      const row = await rowOf(queued.id);
      return row.status === 'sent' ? row : undefined;
    });
    expect(sent.sentAt).toBeGreaterThan(0);
  });

  it('marks a mail failed after the last attempt and stops trying', async () => {
    smtp ??= await startSmtp();
    const to = uniqueEmail('reject');
    await server.ctx.mailer.enqueue({ to, subject: 'x', text: 'x' });
    const [queued] = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, to));
    const failedOnce = await until(async () => {
      const r = await rowOf(queued.id);
      return r.attempts === 1 ? r : undefined;
    });
    expect(failedOnce.lastError).toMatch(/550|mailbox unavailable/);
    // Jump to the last attempt instead of waiting through the backoff.
    await server.ctx.db
      .update(outboxEmails)
      .set({ attempts: OUTBOX.maxAttempts - 1, nextAttemptAt: 0 })
      .where(eq(outboxEmails.id, queued.id));
    const failed = await until(async () => {
      const r = await rowOf(queued.id);
      return r.status === 'failed' ? r : undefined;
    });
    expect(failed.attempts).toBe(OUTBOX.maxAttempts);
    await server.ctx.db.update(outboxEmails).set({ nextAttemptAt: 0 }).where(eq(outboxEmails.id, queued.id));
    await new Promise((r) => setTimeout(r, OUTBOX.pollMs * 2));
    expect((await rowOf(queued.id)).attempts).toBe(OUTBOX.maxAttempts);
    expect(smtp?.mails.some((m) => m.to.includes(to))).toBe(false);
  });
});

describe(`mail outbox without SMTP_URL (${TEST_DB_KIND})`, () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('stores the mail as "stored" and never tries to send it', async () => {
    const to = uniqueEmail('stored');
    await server.ctx.mailer.enqueue({ to, subject: 'Code 123456', text: 'code 123456' });
    await new Promise((r) => setTimeout(r, OUTBOX.pollMs * 2));
    const [row] = await server.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to, to));
    expect(row).toMatchObject({ status: 'stored', attempts: 0, subject: 'Code 123456' });
  });
});
