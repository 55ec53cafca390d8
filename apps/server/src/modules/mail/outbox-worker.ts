/**
 * The mail outbox worker: sends pending `outbox_emails` rows over SMTP (nodemailer) with retries and exponential
 * backoff (ARCHITECTURE.md "email"). Claiming, leases, polling and backoff are the shared outbox loop's
 * (core/outbox-loop.ts, which the LINE outbox uses too); this file is only the SMTP sending.
 */
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { claimDue, failedAttempt, startOutboxLoop, type TOutboxWorker } from '../outbox/outbox-loop.js';
import type { Db } from '../../db/client.js';
import { outboxEmails } from '../../db/schema.js';

export { backoffMs, OUTBOX, type TOutboxWorker } from '../outbox/outbox-loop.js';

interface TClaimedMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  attempts: number;
}

/** Starts the worker sending through `smtpUrl` from `from`. */
export function startOutboxWorker(opts: { db: Db; log: Logger; smtpUrl: string; from: string }): TOutboxWorker {
  const { db, log } = opts;
  const transport = nodemailer.createTransport({
    url: opts.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });

  async function sendOne(mail: TClaimedMail): Promise<void> {
    try {
      await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
      await db.update(outboxEmails).set({ status: 'sent', sentAt: Date.now(), lastError: null }).where(eq(outboxEmails.id, mail.id));
      log.info({ mailId: mail.id, to: mail.to }, 'mail sent');
    } catch (err) {
      const update = failedAttempt(mail.attempts, err);
      await db.update(outboxEmails).set(update).where(eq(outboxEmails.id, mail.id));
      log.warn(
        { mailId: mail.id, to: mail.to, attempts: update.attempts, failed: update.status === 'failed', err: (err as Error).message },
        'mail not sent',
      );
    }
  }

  return startOutboxLoop({
    log,
    name: 'mail',
    async pass() {
      const claimed = await claimDue<TClaimedMail>(db, 'outbox_emails', 'id, "to", subject, text, attempts');
      for (const mail of claimed) await sendOne(mail);
    },
    onStop: () => transport.close(),
  });
}
