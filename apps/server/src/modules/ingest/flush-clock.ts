/**
 * When the ingest pipeline writes its filling batch (docs/decisions/ingest.md "Batching"): at once when no batch is
 * being written — on the event loop's next turn, so that one turn's reads go together — and otherwise once the batch
 * is {@link flushWaitMs} old. The clock only decides and wakes the pipeline; the pipeline starts the write.
 */

/**
 * How long (ms) the filling batch gathers publishes while `writesInFlight` of `writers` batches are being written:
 * `flushMs` (INGEST_FLUSH_MS) in proportion to the writers busy. An idle writer goes at once (low latency when the
 * database keeps up); busy writers let the next batch grow (fewer, larger statements under load). Measured against a
 * fixed 20 ms wait in docs/decisions/ingest.md "1-point ingest".
 */
export function flushWaitMs(flushMs: number, writesInFlight: number, writers: number): number {
  return (flushMs * Math.min(writesInFlight, writers)) / writers;
}

/** Decides whether the filling batch is due, and calls `wake` (the pipeline's schedule) when a waiting one becomes due. */
export class FlushClock {
  private timer: NodeJS.Timeout | null = null;
  private endOfTurn: NodeJS.Immediate | null = null;
  private turnEnded = false;

  /** `flushMs`: INGEST_FLUSH_MS; `writers`: batches written at most at once; `wake`: run when a batch may be due. */
  constructor(
    private readonly flushMs: number,
    private readonly writers: number,
    private readonly wake: () => void,
  ) {}

  /**
   * Whether a batch opened at `openedAt` (epoch ms) is due now with `writesInFlight` writes under way; when not, `wake`
   * runs when it may be (the next turn with no write in flight, else after the remaining wait).
   */
  due(openedAt: number, writesInFlight: number): boolean {
    if (writesInFlight === 0) {
      if (this.turnEnded) return true;
      this.endOfTurn ??= setImmediate(() => {
        this.endOfTurn = null;
        this.turnEnded = true;
        try {
          this.wake();
        } finally {
          this.turnEnded = false;
        }
      });
      return false;
    }
    const waitMs = openedAt + flushWaitMs(this.flushMs, writesInFlight, this.writers) - Date.now();
    if (waitMs <= 0) return true;
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.wake();
    }, waitMs);
    return false;
  }

  /** Cancels any pending wake-up (shutdown: the pipeline then writes what it holds at once). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.endOfTurn) clearImmediate(this.endOfTurn);
    this.endOfTurn = null;
  }
}
