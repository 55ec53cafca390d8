/**
 * The trace of platform-rule runs on its way to `platform_rule_runs` (docs/platform-rules.md "Runs and the trace"):
 * rows wait in memory until TRACE_BATCH of them or TRACE_FLUSH_MS has passed, then go out in one statement each
 * (flow-store.ts writeRuns), at most TRACE_WRITERS statements at once so the database works on one batch while the
 * next fills. A failed write is logged; runs never wait for their trace. While the database is behind, at most
 * TRACE_PENDING_MAX rows wait: further rows are dropped and counted (a line per 10 s), so a rule on a hot key under
 * overload — every refused trigger is a row — cannot grow the heap without bound (measured before the bound: 22,000
 * rows behind after 3 s at 10,000 points/s, and rising).
 */
import type { Logger } from 'pino';
import { ThrottledLog } from '../../../core/throttled-log.js';
import type { Db } from '../../../db/client.js';
import { type TRunRow, writeRuns } from './flow-store.js';

/** Trace rows are written when this many wait, or after TRACE_FLUSH_MS. */
export const TRACE_BATCH = 500;
const TRACE_FLUSH_MS = 200;
/** Trace writes in flight at once. */
const TRACE_WRITERS = 2;
/** Trace rows waiting at most; more are dropped (counted in {@link TraceWriter.dropped}). */
export const TRACE_PENDING_MAX = 10 * TRACE_BATCH;

/** Batches run rows into the database. */
export class TraceWriter {
  private readonly rows: TRunRow[] = [];
  private readonly flushing = new Set<Promise<void>>();
  private flushLoop: Promise<void> | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Rows dropped since start because TRACE_PENDING_MAX were waiting. */
  dropped = 0;
  private readonly dropLog: ThrottledLog;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {
    this.dropLog = new ThrottledLog(log);
  }

  /**
   * Queues one run's row; a full batch starts a write, else a timer does. After stop(), or while TRACE_PENDING_MAX
   * rows wait, the row is dropped.
   */
  record(row: TRunRow): void {
    if (this.stopped) return;
    if (this.rows.length >= TRACE_PENDING_MAX) {
      this.dropped += 1;
      this.dropLog.warn(
        'dropped',
        { dropped: this.dropped, waiting: this.rows.length },
        'platform rules: trace rows dropped (the database is behind)',
      );
      return;
    }
    this.rows.push(row);
    if (this.rows.length >= TRACE_BATCH) void this.flush();
    else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        void this.flush();
      }, TRACE_FLUSH_MS);
    }
  }

  /**
   * Writes the trace rows waiting, at most TRACE_WRITERS statements at once (the database works on two batches while
   * the next fills); resolves when every write started so far is done (or failed and was logged).
   */
  flush(): Promise<void> {
    this.flushLoop ??= this.writeTrace().finally(() => {
      this.flushLoop = null;
    });
    return this.flushLoop;
  }

  /** The one loop writing the trace (flush() joins it rather than starting another). */
  private async writeTrace(): Promise<void> {
    // Rows recorded while the last writes were in flight are picked up before the loop ends.
    do {
      while (this.rows.length > 0) {
        while (this.flushing.size >= TRACE_WRITERS) await Promise.race(this.flushing);
        const rows = this.rows.splice(0, TRACE_BATCH);
        const write: Promise<void> = writeRuns(this.db, rows).then(
          () => undefined,
          (err: unknown) => this.log.warn({ err, runs: rows.length }, 'platform rules: trace rows not written'),
        );
        this.flushing.add(write);
        void write.finally(() => this.flushing.delete(write));
      }
      await Promise.all(this.flushing);
    } while (this.rows.length > 0);
  }

  /**
   * Stops the writer for the engine's close(): the flush timer ends, rows still waiting (not yet in a statement) are
   * dropped, and rows recorded later are not taken — the database is about to close. Statements already sent finish.
   * @returns how many waiting rows were dropped.
   */
  stop(): number {
    this.stopped = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    return this.rows.splice(0).length;
  }
}
