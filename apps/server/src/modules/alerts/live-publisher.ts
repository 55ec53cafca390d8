/**
 * Publishes alert changes on the live channel (alerts/publish.ts `publishAlertChange`) without letting a burst of
 * evaluations queue a burst of publishes: one publish per alert at a time, at most one per
 * LIVE_ALERT_MIN_INTERVAL_MS; changes meanwhile collapse into one more publish afterwards, which reads the alert as
 * it is then (so the last message always carries the newest state). A new alert's first publish goes out at once.
 */

/** Least time between two live publishes of the same alert, ms (a level rule may update it on every point). */
export const LIVE_ALERT_MIN_INTERVAL_MS = 1_000;

/** Coalesces publishes per alert id. */
export class AlertPublisher {
  private readonly running = new Map<number, Promise<void>>();
  private readonly again = new Set<number>();

  constructor(
    private readonly publish: (alertId: number) => Promise<void>,
    private readonly minIntervalMs = LIVE_ALERT_MIN_INTERVAL_MS,
  ) {}

  /** Publishes alert `alertId` soon (never throws; publishAlertChange logs its own failures). */
  changed(alertId: number): void {
    if (this.running.has(alertId)) {
      this.again.add(alertId);
      return;
    }
    const run = (async () => {
      for (;;) {
        this.again.delete(alertId);
        const started = Date.now();
        await this.publish(alertId).catch(() => undefined);
        if (!this.again.has(alertId)) return;
        await new Promise((r) => setTimeout(r, Math.max(0, started + this.minIntervalMs - Date.now())));
      }
    })().finally(() => this.running.delete(alertId));
    this.running.set(alertId, run);
  }

  /** Resolves once nothing is being published. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }
}
