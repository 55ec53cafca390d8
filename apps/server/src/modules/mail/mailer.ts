/**
 * The mail service (ARCHITECTURE.md "email"): every mail goes into `outbox_emails` and the log first. With
 * SMTP_URL the row is `pending` and the outbox worker sends it; without, it is `stored` (the demo reads codes
 * from the log, the platform admin from the table).
 */
import type { TAppContext, TMail, TMailer } from '../../core/context.js';
import type { Db } from '../../db/client.js';
import { outboxEmails } from '../../db/schema.js';
import { startOutboxWorker, type TOutboxWorker } from './outbox-worker.js';

/** The outbox mailer and its sending worker. */
export interface TMailService {
  mailer: TMailer;
  /** Starts the worker that sends pending outbox mail via SMTP_URL (no-op without it). */
  start(): void;
  /** Stops the worker. */
  stop(): Promise<void>;
}

/** Builds the mail service over `ctx.db`; call `start()` once the server is up. */
export function createMailService(ctx: Pick<TAppContext, 'db' | 'log' | 'config'>): TMailService {
  const { db, log, config } = ctx;
  let worker: TOutboxWorker | null = null;
  const mailer: TMailer = {
    async enqueue(mail: TMail, tx: Db = db) {
      const status = config.smtpUrl ? 'pending' : 'stored';
      const [row] = await tx
        .insert(outboxEmails)
        .values({ to: mail.to, subject: mail.subject, text: mail.text, status, nextAttemptAt: 0, alertId: mail.alertId ?? null })
        .returning({ id: outboxEmails.id });
      // The whole mail at info level on purpose: without SMTP the log is how the demo shows verification codes.
      log.info({ mailId: row.id, to: mail.to, subject: mail.subject, text: mail.text, status }, 'mail queued');
      // Inside a caller's transaction the row may not be visible to this pass yet; the next poll picks it up.
      worker?.nudge();
    },
  };
  return {
    mailer,
    start() {
      if (!config.smtpUrl || worker) return;
      worker = startOutboxWorker({ db, log, smtpUrl: config.smtpUrl, from: config.mailFrom });
    },
    async stop() {
      await worker?.stop();
      worker = null;
    },
  };
}
