/**
 * Publishes alert changes on the live channel (alerts/publish.ts `publishAlertChange`) without letting a burst of
 * evaluations queue a burst of publishes (docs/decisions/alerts.md "Live channel"). An alert not published in the
 * last LIVE_ALERT_MIN_INTERVAL_MS goes out at once (a new alert is seen at once). A change of an alert published
 * more recently, or being published, waits for the publisher's next flush: one timer for all such alerts, which
 * publishes every alert waiting in the same tick, so the batched publisher reads them together (two queries for
 * all, not two per alert). A level rule's open alerts, counted on every point, so cost one batch per interval
 * whatever their number, and each message reads the alert as it is then (the last carries the newest state).
 */

/** Least time between two live publishes of the same alert, ms (a level rule may update it on every point). */
export const LIVE_ALERT_MIN_INTERVAL_MS = 1_000;
/** Publish times remembered before the ones older than the interval are dropped (then twice what is left, at least). */
const PUBLISHED_AT_PRUNE_FROM = 4_096;

/** Coalesces publishes per alert id and flushes the waiting ones together. */
export class AlertPublisher {
  /**
   * When each alert's last publish started (epoch ms); entries older than the interval are dropped at a flush and as
   * the map grows ({@link pruneFrom}).
   */
  private readonly publishedAt = new Map<number, number>();
  /** Alerts whose publish is in progress (never two of one alert at once: the older read could arrive last). */
  private readonly inFlight = new Set<number>();
  /** Alerts changed since their last publish, waiting for the next flush. */
  private readonly waiting = new Set<number>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private flushed: (() => void)[] = [];
  /** Size of {@link publishedAt} at which its old entries are dropped (alerts published once are never flushed). */
  private pruneFrom = PUBLISHED_AT_PRUNE_FROM;

  /**
   * @param publish publishes one alert (never expected to throw; a rejection is ignored).
   * @param minIntervalMs least time between two publishes of one alert, and the flush period.
   * @param now the clock (epoch ms).
   */
  constructor(
    private readonly publish: (alertId: number) => Promise<void>,
    private readonly minIntervalMs = LIVE_ALERT_MIN_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Publishes alert `alertId` at once or at the next flush (never throws; publishAlertChange logs its own failures). */
  changed(alertId: number): void {
    const at = this.publishedAt.get(alertId);
    if (!this.inFlight.has(alertId) && (at === undefined || this.now() - at >= this.minIntervalMs)) {
      this.start(alertId);
      return;
    }
    this.waiting.add(alertId);
    this.timer ??= setTimeout(() => this.flush(), this.minIntervalMs);
  }

  /** Resolves once nothing is being published or waiting for a flush. */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.waiting.size > 0) {
      if (this.running.size > 0) await Promise.all(this.running);
      else await new Promise<void>((resolve) => this.flushed.push(resolve));
    }
  }

  /** How many publish times are remembered (bounded: the ones older than the interval are dropped as it grows). */
  get remembered(): number {
    return this.publishedAt.size;
  }

  private start(alertId: number): void {
    this.publishedAt.set(alertId, this.now());
    if (this.publishedAt.size >= this.pruneFrom) {
      this.forgetOld(this.now());
      this.pruneFrom = Math.max(PUBLISHED_AT_PRUNE_FROM, 2 * this.publishedAt.size);
    }
    this.inFlight.add(alertId);
    const run: Promise<void> = this.publish(alertId)
      .catch(() => undefined)
      .finally(() => {
        this.inFlight.delete(alertId);
        this.running.delete(run);
      });
    this.running.add(run);
  }

  /** Publishes every waiting alert not in flight (in one tick); those in flight wait for the next flush. */
  private flush(): void {
    this.timer = null;
    this.forgetOld(this.now());
    for (const id of [...this.waiting]) {
      if (this.inFlight.has(id)) continue;
      this.waiting.delete(id);
      this.start(id);
    }
    if (this.waiting.size > 0) this.timer = setTimeout(() => this.flush(), this.minIntervalMs);
    const flushed = this.flushed;
    this.flushed = [];
    for (const resolve of flushed) resolve();
  }

  /** Drops the publish times older than the interval (their alerts would go out at once anyway). */
  private forgetOld(now: number): void {
    for (const [id, at] of this.publishedAt) if (now - at >= this.minIntervalMs && !this.inFlight.has(id)) this.publishedAt.delete(id);
  }
}
