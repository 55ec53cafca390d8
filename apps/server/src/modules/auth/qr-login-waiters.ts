/**
 * The QR-login streams one replica holds while they wait (docs/decisions/auth.md "QR login"), and what wakes them:
 * a waiting stream issues no query while nothing happens. A confirmation notifies {@link QR_LOGIN_CHANNEL} (on any
 * replica: NOTIFY crosses processes); the replica holding that session's stream claims it (one query, on that replica
 * only). Besides, each stream looks once at its expiry, and one query for all of the replica's waiting streams every
 * {@link QR_RECHECK_MS} — and once after every (re)LISTEN — catches a notification that was lost (a dropped listening
 * connection, a replica stopped between commit and delivery). The caps bound the sockets anonymous callers may hold.
 */
import { ErrorCode, type TTokenResponse } from '@tessera/contracts';
import type { Logger } from 'pino';
import { startDatabaseListener, type TDatabaseListener } from '../../core/database-listener.js';
import { AppError } from '../../core/errors.js';
import { ThrottledLog } from '../../core/throttled-log.js';
import type { TokenService } from '../../core/tokens.js';
import type { Database, Db } from '../../db/client.js';
import { claimQrSession, QR_LOGIN_CHANNEL, qrSessionsToCheck } from './qr-login.js';

/** The safety re-check of every waiting stream of a replica, in milliseconds (one query for all of them). */
export const QR_RECHECK_MS = 15_000;
/** How long a new stream waits for LISTEN to be in place before it goes on without it, in milliseconds. */
const LISTEN_READY_MS = 2_000;
/** A stream looks at its session this long after the session's expiry, in milliseconds (clocks of replicas differ a little). */
const EXPIRY_SLACK_MS = 250;
/** Retry-After of a refused stream, in seconds: a slot frees as soon as any waiting stream ends. */
export const QR_STREAMS_RETRY_AFTER_S = 10;
/** Session ids per re-check query. */
const RECHECK_CHUNK = 1_000;

/** What ends a waiting stream: the confirming account's token pair, or the session's expiry. */
export type TQrOutcome = TTokenResponse | 'expired';

/** The caps of {@link QrLoginWaiters} (README "Configuration": QR_LOGIN_MAX_STREAMS, QR_LOGIN_MAX_STREAMS_PER_IP). */
export interface TQrStreamLimits {
  maxStreams: number;
  maxStreamsPerIp: number;
}

interface TWaiter {
  deliver: (outcome: TQrOutcome) => void;
  expiryTimer: NodeJS.Timeout;
  checking: boolean;
  again: boolean;
}

/** The waiting streams of one server (one per app: nothing is kept in module state). */
export class QrLoginWaiters {
  private readonly perIp = new Map<string, number>();
  private held = 0;
  private readonly waiting = new Map<string, TWaiter>();
  private listener: TDatabaseListener | null = null;
  private recheckTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Through a database outage every check fails alike: one line per window. */
  private readonly failures: ThrottledLog;

  constructor(private readonly deps: { database: Database; db: Db; tokens: TokenService; log: Logger; limits: TQrStreamLimits }) {
    this.failures = new ThrottledLog(deps.log);
  }

  /**
   * Takes a stream slot for client address `ip`, before anything is written; answers the function that gives it back
   * (calling it again does nothing).
   * @throws AppError 429 QR_LOGIN_TOO_MANY_STREAMS when `ip` holds maxStreamsPerIp; 503 QR_LOGIN_BUSY when the
   * replica holds maxStreams (both with Retry-After).
   */
  reserve(ip: string): () => void {
    const { maxStreams, maxStreamsPerIp } = this.deps.limits;
    const mine = this.perIp.get(ip) ?? 0;
    if (mine >= maxStreamsPerIp) {
      const message = `this address already holds ${maxStreamsPerIp} waiting QR codes; use one of them, or try again later`;
      throw new AppError(429, ErrorCode.QrLoginTooManyStreams, message, undefined, QR_STREAMS_RETRY_AFTER_S);
    }
    if (this.held >= maxStreams) {
      throw new AppError(
        503,
        ErrorCode.QrLoginBusy,
        'too many QR codes are waiting on this server; try again shortly',
        undefined,
        QR_STREAMS_RETRY_AFTER_S,
      );
    }
    this.perIp.set(ip, mine + 1);
    this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      const left = (this.perIp.get(ip) ?? 1) - 1;
      if (left > 0) this.perIp.set(ip, left);
      else this.perIp.delete(ip);
    };
  }

  /** Starts listening at the first call; true once LISTEN is in place, false if not within LISTEN_READY_MS. */
  async ready(): Promise<boolean> {
    if (this.closed) return false;
    if (!this.listener) {
      try {
        this.listener = startDatabaseListener({
          database: this.deps.database,
          channel: QR_LOGIN_CHANNEL,
          log: this.deps.log,
          onNotify: (id) => this.check(id),
          onListening: () => void this.recheckAll(),
        });
      } catch (err) {
        // Without a listener the streams still end: at the re-check, at the latest QR_RECHECK_MS late.
        this.deps.log.error({ err }, 'QR login: cannot listen for confirmations');
        return false;
      }
    }
    return this.listener.ready(LISTEN_READY_MS);
  }

  /**
   * Waits for session `id` (expiring at `expiresAtMs`, epoch ms): `deliver` is called once with the outcome. Answers
   * the function that stops waiting (the stream closed).
   */
  watch(id: string, expiresAtMs: number, deliver: (outcome: TQrOutcome) => void): () => void {
    const expiryTimer = setTimeout(() => this.check(id), Math.max(0, expiresAtMs - Date.now()) + EXPIRY_SLACK_MS);
    this.waiting.set(id, { deliver, expiryTimer, checking: false, again: false });
    this.recheckTimer ??= setInterval(() => void this.recheckAll(), QR_RECHECK_MS);
    return () => this.forget(id);
  }

  /** Stops every timer and the listener (the server stopping; the streams are ended by their route). */
  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.waiting.keys()]) this.forget(id);
    await this.listener?.close();
  }

  private forget(id: string): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    clearTimeout(waiter.expiryTimer);
    this.waiting.delete(id);
    if (this.waiting.size === 0 && this.recheckTimer) {
      clearInterval(this.recheckTimer);
      this.recheckTimer = null;
    }
  }

  /** Claims session `id` if a stream here waits for it; a wake-up during a check runs one more check after it. */
  private check(id: string): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    if (waiter.checking) {
      waiter.again = true;
      return;
    }
    waiter.checking = true;
    claimQrSession(this.deps.db, this.deps.tokens, id, Date.now())
      .then((outcome) => {
        if (outcome === null || this.waiting.get(id) !== waiter) return;
        this.forget(id);
        waiter.deliver(outcome);
      })
      // A database blip: the stream keeps waiting; the next re-check looks again.
      .catch((err: unknown) => this.failures.warn('check', { err }, 'QR login session not checked'))
      .finally(() => {
        waiter.checking = false;
        if (waiter.again && this.waiting.get(id) === waiter) {
          waiter.again = false;
          this.check(id);
        }
      });
  }

  /** One query per RECHECK_CHUNK waiting streams; wakes those confirmed or expired. Never throws. */
  private async recheckAll(): Promise<void> {
    if (this.waiting.size === 0) return;
    await this.listener?.probe();
    const ids = [...this.waiting.keys()];
    try {
      for (let i = 0; i < ids.length; i += RECHECK_CHUNK) {
        for (const id of await qrSessionsToCheck(this.deps.db, ids.slice(i, i + RECHECK_CHUNK), Date.now())) this.check(id);
      }
    } catch (err) {
      this.failures.warn('recheck', { err }, 'QR login sessions not re-checked');
    }
  }
}
