/**
 * The run queue of the flow engine (docs/platform-rules.md "Limits"): each tenant's runs start at most
 * `runs_per_second` per second (a one-second window), the rest wait in the tenant's queue in arrival order; a run
 * offered when the window's allowance is spent and `queue_max` runs already wait is refused (the caller records
 * it). Across tenants at most `concurrency` runs are in progress at once.
 */
import type { TEngineConfig } from '@tessera/contracts';

/**
 * A FIFO whose take is O(1): `Array.shift()` moves every element, and a tenant's queue may hold `queue_max` (up to
 * 100,000) runs, so shifting one at a time was quadratic in the queue's length exactly when the engine was behind.
 */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  take(): T {
    const item = this.items[this.head] as T;
    this.items[this.head] = undefined as T;
    this.head += 1;
    // Compact once the taken half dominates, so memory stays proportional to what waits.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Removes and answers every item, in order. */
  takeAll(): T[] {
    const all = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return all;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i] as T;
  }
}

interface TTenantQueue<T> {
  config: TEngineConfig;
  runs: Fifo<T>;
  windowStart: number;
  startedInWindow: number;
}

/** Per-tenant rate-limited queues in front of a runner. */
export class RunQueue<T> {
  private readonly queues = new Map<number, TTenantQueue<T>>();
  private running = 0;
  /** Items waiting across tenants (not started). */
  private waiting = 0;
  private timer: NodeJS.Timeout | null = null;

  /**
   * @param run starts one run; the queue counts it in progress until the promise settles.
   * @param settled called after each run settles (the engine wakes whoever waits for idle).
   */
  constructor(
    private readonly run: (item: T) => Promise<void>,
    private readonly concurrency: number,
    private readonly settled: () => void = () => undefined,
  ) {}

  /** Queues `item` of `tenantId` under `config`; answers false (nothing queued) when the tenant's limit refuses it. */
  offer(tenantId: number, config: TEngineConfig, item: T): boolean {
    let q = this.queues.get(tenantId);
    if (!q) {
      q = { config, runs: new Fifo<T>(), windowStart: Date.now(), startedInWindow: 0 };
      this.queues.set(tenantId, q);
    }
    this.roll(q, Date.now());
    const rateSpent = q.startedInWindow + q.runs.length >= config.runs_per_second;
    if (rateSpent && q.runs.length >= config.queue_max) return false;
    q.config = config;
    q.runs.push(item);
    this.waiting += 1;
    this.pump();
    return true;
  }

  /** Queued (not yet started) items matching `match`. */
  count(match: (item: T) => boolean): number {
    let n = 0;
    for (const q of this.queues.values()) for (const r of q.runs) if (match(r)) n += 1;
    return n;
  }

  /** Runs in progress (started, not settled). */
  get inProgress(): number {
    return this.running;
  }

  /** True while a run is in progress or waiting. */
  get busy(): boolean {
    return this.running > 0 || this.waiting > 0;
  }

  /**
   * Takes every queued (not yet started) item out of the queue, in arrival order per tenant, and answers them; runs
   * in progress are not touched. The engine's close uses it: waiting runs are derived work, not stored data.
   */
  clear(): T[] {
    const taken: T[] = [];
    for (const q of this.queues.values()) for (const run of q.runs.takeAll()) taken.push(run);
    this.waiting = 0;
    return taken;
  }

  /** Stops the window timer (runs in progress finish on their own). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private roll(q: TTenantQueue<T>, wall: number): void {
    if (wall - q.windowStart >= 1000) {
      q.windowStart = wall;
      q.startedInWindow = 0;
    }
  }

  private pump(): void {
    for (const [tenantId, q] of this.queues) {
      const wall = Date.now();
      this.roll(q, wall);
      while (q.runs.length > 0 && this.running < this.concurrency && q.startedInWindow < q.config.runs_per_second) {
        const item = q.runs.take();
        this.waiting -= 1;
        q.startedInWindow += 1;
        this.running += 1;
        void this.run(item).finally(() => {
          this.running -= 1;
          this.pump();
          this.settled();
        });
      }
      if (q.runs.length === 0 && this.running === 0) this.queues.delete(tenantId);
      else if (q.runs.length > 0 && q.startedInWindow >= q.config.runs_per_second && !this.timer) {
        this.timer = setTimeout(
          () => {
            this.timer = null;
            this.pump();
          },
          Math.max(1, 1000 - (wall - q.windowStart)),
        );
      }
    }
  }
}
