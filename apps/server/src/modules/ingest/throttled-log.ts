/**
 * Rate-limited warnings: one log line per (device, reason) per window, carrying how many were suppressed, so a
 * device spamming bad payloads cannot flood the log.
 */
import type { Logger } from 'pino';

/** Default window of {@link ThrottledLog}, in milliseconds. */
export const LOG_WINDOW_MS = 10_000;

/** Logs at most one warning per key per window. */
export class ThrottledLog {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly log: Logger,
    private readonly windowMs = LOG_WINDOW_MS,
  ) {}

  /** Warns `msg` with `fields` unless `key` warned within the window (then only counts it). */
  warn(key: string, fields: Record<string, unknown>, msg: string, nowMs = Date.now()): void {
    const seen = this.last.get(key);
    if (seen && nowMs - seen.at < this.windowMs) {
      seen.suppressed += 1;
      return;
    }
    this.log.warn({ ...fields, suppressed: seen?.suppressed ?? 0 }, msg);
    this.last.set(key, { at: nowMs, suppressed: 0 });
    if (this.last.size > 10_000) this.last.clear();
  }
}
