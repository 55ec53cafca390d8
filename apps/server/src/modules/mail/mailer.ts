/**
 * The mailer (ARCHITECTURE.md "email"): every mail goes into `outbox_emails` and the log first. With SMTP_URL the
 * row is `pending` and the outbox's mail worker sends it (app/outbox.ts, outbox-worker.ts); without, it is `stored`
 * (the demo reads codes from the log, the platform admin from the table).
 */
import type { TAppContext, TMail, TMailer } from '../../core/context.js';
import type { Db } from '../../db/client.js';
import { outboxEmails } from '../../db/schema.js';

/** Builds the mailer over `ctx.db`; it nudges the outbox's mail worker after each mail. */
export function createMailer(ctx: Pick<TAppContext, 'db' | 'log' | 'config' | 'outbox'>): TMailer {
  const { db, log, config } = ctx;
  return {
    async enqueue(mail: TMail, tx: Db = db) {
      const status = config.smtpUrl ? 'pending' : 'stored';
      const [row] = await tx
        .insert(outboxEmails)
        .values({ to: mail.to, subject: mail.subject, text: mail.text, status, nextAttemptAt: 0, alertId: mail.alertId ?? null })
        .returning({ id: outboxEmails.id });
      // The whole mail at info level on purpose: without SMTP the log is how the demo shows verification codes.
      log.info({ mailId: row.id, to: mail.to, subject: mail.subject, text: mail.text, status }, 'mail queued');
      // Inside a caller's transaction the row may not be visible to this pass yet; the next poll picks it up.
      ctx.outbox.nudge('mail');
    },
  };
}
