/**
 * The outbox worker: sends pending `outbox_emails` rows over SMTP (nodemailer) with retries and exponential
 * backoff (ARCHITECTURE.md "email"). Rows are claimed with `FOR UPDATE SKIP LOCKED` plus a lease on
 * `next_attempt_at`, so several replicas never send the same mail twice at once; the same SQL runs on PGlite.
 */
import { eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { rowsOf, type Db } from '../../db/client.js';
import { outboxEmails } from '../../db/schema.js';

/** Tuning of the worker; every time is in milliseconds. */
export const OUTBOX = {
  pollMs: 500,
  batch: 10,
  /** A claimed row is not picked again before this, even if its sender died mid-send. */
  leaseMs: 60_000,
  backoffBaseMs: 1_000,
  backoffCapMs: 5 * 60_000,
  /** After this many failed attempts the row is marked `failed` and left alone. */
  maxAttempts: 8,
} as const;

/** Delay before attempt `attempts + 1` after `attempts` failures: 1 s, 2 s, 4 s, … capped at 5 min. */
export function backoffMs(attempts: number): number {
  return Math.min(OUTBOX.backoffBaseMs * 2 ** Math.max(0, attempts - 1), OUTBOX.backoffCapMs);
}

/** A running worker. */
export interface TOutboxWorker {
  /** Runs a pass now (after an enqueue) instead of waiting for the next poll. */
  nudge(): void;
  /** Stops polling and waits for the pass in flight (its sends finish and are recorded). */
  stop(): Promise<void>;
}

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
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | null = null;
  let again = false;

  async function sendOne(mail: TClaimedMail): Promise<void> {
    try {
      await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
      await db.update(outboxEmails).set({ status: 'sent', sentAt: Date.now(), lastError: null }).where(eq(outboxEmails.id, mail.id));
      log.info({ mailId: mail.id, to: mail.to }, 'mail sent');
    } catch (err) {
      const attempts = mail.attempts + 1;
      const failed = attempts >= OUTBOX.maxAttempts;
      await db
        .update(outboxEmails)
        .set({
          attempts,
          lastError: String((err as Error).message ?? err).slice(0, 500),
          status: failed ? 'failed' : 'pending',
          nextAttemptAt: Date.now() + backoffMs(attempts),
        })
        .where(eq(outboxEmails.id, mail.id));
      log.warn({ mailId: mail.id, to: mail.to, attempts, failed, err: (err as Error).message }, 'mail not sent');
    }
  }

  async function pass(): Promise<void> {
    const now = Date.now();
    const claimed = rowsOf<TClaimedMail>(
      await db.execute(sql`
        update outbox_emails set next_attempt_at = ${now + OUTBOX.leaseMs}
        where id in (
          select id from outbox_emails where status = 'pending' and next_attempt_at <= ${now}
          order by next_attempt_at, id limit ${OUTBOX.batch} for update skip locked)
        returning id, "to", subject, text, attempts`),
    );
    for (const mail of claimed) await sendOne(mail);
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
  }

  function run(): void {
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = pass()
      .catch((err) => log.error({ err }, 'outbox pass failed'))
      .finally(() => {
        inFlight = null;
        schedule(again ? 0 : OUTBOX.pollMs);
        again = false;
      });
  }

  schedule(0);
  return {
    nudge: () => schedule(0),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
      transport.close();
    },
  };
}
