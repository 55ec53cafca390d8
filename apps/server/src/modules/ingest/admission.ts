/**
 * The bound on what ingest holds in memory (docs/decisions/ingest.md "Overload"): a first-come-first-served gate on
 * the points admitted and not yet committed. A publish that finds the gate full waits before it is even parsed, and
 * since the broker hook is waiting, Aedes reads nothing more from that device's socket (it reads a connection's next
 * chunk only after every publish of the last one was handled): the backlog stays in the devices and in TCP buffers,
 * not in the server's heap. One publish is admitted at a time, so the bound is exceeded by at most one message.
 */

interface TWaiting {
  resolve: () => void;
  reject: (err: Error) => void;
}

/** A FIFO gate of `limit` points. */
export class AdmissionGate {
  private held = 0;
  /** True between a waiter's admission and its {@link added} call (so the next one waits its turn). */
  private granted = false;
  private readonly queue: TWaiting[] = [];

  constructor(private readonly limit: number) {}

  /** Points admitted and not yet released. */
  get heldPoints(): number {
    return this.held;
  }

  /** Publishes waiting to be admitted. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Admits the caller: answers null when it may go on at once, else a promise that resolves when its turn comes
   * (or rejects with `close`'s error). Either way the caller must call {@link added} synchronously afterwards.
   */
  enter(): Promise<void> | null {
    if (!this.granted && this.queue.length === 0 && this.held < this.limit) {
      this.granted = true;
      return null;
    }
    return new Promise((resolve, reject) => this.queue.push({ resolve, reject }));
  }

  /** The admitted caller added `points` (0 when it added nothing); the next waiter may be admitted. */
  added(points: number): void {
    this.held += points;
    this.granted = false;
    this.next();
  }

  /** `points` admitted earlier were committed or given up. */
  release(points: number): void {
    this.held -= points;
    this.next();
  }

  /** Rejects every waiting caller with `err` (shutdown). */
  close(err: Error): void {
    for (const w of this.queue.splice(0)) w.reject(err);
  }

  private next(): void {
    if (this.granted || this.held >= this.limit) return;
    const w = this.queue.shift();
    if (!w) return;
    this.granted = true;
    w.resolve();
  }
}
