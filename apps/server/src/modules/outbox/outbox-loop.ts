/**
 * The one outbox loop behind every outbox table (mail, LINE): poll, claim due `pending` rows with
 * `FOR UPDATE SKIP LOCKED` plus a lease on `next_attempt_at` (several replicas never handle the same row at once,
 * and a row whose sender died is picked again after the lease), hand each to the table's sender, and retry failures
 * with exponential backoff up to a last attempt. The same SQL runs on PGlite and PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { ThrottledLog } from '../../core/throttled-log.js';
import { rowsOf, type Db } from '../../db/client.js';

/** Tuning of every outbox; every time is in milliseconds. */
export const OUTBOX = {
  pollMs: 500,
  batch: 10,
  /** A claimed row is not picked again before this, even if its sender died mid-send. */
  leaseMs: 60_000,
  backoffBaseMs: 1_000,
  backoffCapMs: 5 * 60_000,
  /**
   * After this many failed attempts the row is marked `failed` and left alone. 300 attempts at 1 s, 2 s, … then every
   * 5 min is about 24 h of retrying, so an SMTP or LINE outage of up to a day loses nothing.
   */
  maxAttempts: 300,
} as const;

/** Delay before attempt `attempts + 1` after `attempts` failures: 1 s, 2 s, 4 s, … capped at 5 min. */
export function backoffMs(attempts: number): number {
  return Math.min(OUTBOX.backoffBaseMs * 2 ** Math.max(0, attempts - 1), OUTBOX.backoffCapMs);
}

/**
 * The columns to write after a failed attempt of a row that had `previousAttempts`: one more attempt, the error,
 * and either the next try after the backoff or `failed` after the last attempt.
 */
export function failedAttempt(previousAttempts: number, err: unknown, now = Date.now()) {
  const attempts = previousAttempts + 1;
  const failed = attempts >= OUTBOX.maxAttempts;
  return {
    attempts,
    lastError: String((err as Error)?.message ?? err).slice(0, 500),
    status: failed ? ('failed' as const) : ('pending' as const),
    nextAttemptAt: now + backoffMs(attempts),
  };
}

/**
 * Claims up to `limit` due pending rows of outbox `table` (columns `id`, `status`, `next_attempt_at`) by moving their
 * `next_attempt_at` past the lease (`leaseMs`, default OUTBOX.leaseMs); answers the claimed rows' `columns` (raw SQL
 * column list, e.g. `id, "to", text`). `onlyId` claims that one row if it is due (a send-now path). `stateColumn`
 * names the column holding `pending` when it is not `status` (a job table whose `status` is the user's state).
 */
export async function claimDue<T>(
  db: Db,
  table: string,
  columns: string,
  opts: { limit?: number; onlyId?: number; leaseMs?: number; stateColumn?: string } = {},
): Promise<T[]> {
  const now = Date.now();
  const t = sql.identifier(table);
  const state = sql.identifier(opts.stateColumn ?? 'status');
  const only = opts.onlyId === undefined ? sql`` : sql`and id = ${opts.onlyId}`;
  return rowsOf<T>(
    await db.execute(sql`
      update ${t} set next_attempt_at = ${now + (opts.leaseMs ?? OUTBOX.leaseMs)}
      where id in (
        select id from ${t} where ${state} = 'pending' and next_attempt_at <= ${now} ${only}
        order by next_attempt_at, id limit ${opts.limit ?? OUTBOX.batch} for update skip locked)
      returning ${sql.raw(columns)}`),
  );
}

/** A running outbox loop. */
export interface TOutboxWorker {
  /** Runs a pass now (after an enqueue) instead of waiting for the next poll. */
  nudge(): void;
  /** Stops polling and waits for the pass in flight (its sends finish and are recorded). */
  stop(): Promise<void>;
}

/**
 * Starts a loop that calls `pass` (claim and send one batch) every OUTBOX.pollMs, at once after a nudge, never two
 * passes at a time. A pass that throws is logged and the loop goes on: through a database outage every pass fails, so
 * failures are logged once per LOG_WINDOW_MS (core/throttled-log.ts) with the number held back, and the first pass that
 * succeeds again says how many failed.
 */
export function startOutboxLoop(opts: { log: Logger; name: string; pass: () => Promise<void>; onStop?: () => void }): TOutboxWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | null = null;
  let again = false;
  let failedPasses = 0;
  const failures = new ThrottledLog(opts.log);

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
    inFlight = opts
      .pass()
      .then(
        () => {
          if (failedPasses > 0) opts.log.info({ outbox: opts.name, failedPasses }, 'outbox passes succeed again');
          failedPasses = 0;
        },
        (err: unknown) => {
          failedPasses += 1;
          failures.error('pass', { err, outbox: opts.name, failedPasses }, 'outbox pass failed');
        },
      )
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
      opts.onStop?.();
    },
  };
}
