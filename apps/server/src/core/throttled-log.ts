/**
 * Rate-limited log lines: one line per key per window, carrying how many were suppressed since the last one, so a
 * device spamming bad payloads, or a worker failing every pass through a database outage, cannot flood the log.
 */
import type { Logger } from 'pino';

/** Default window of {@link ThrottledLog}, in milliseconds. */
export const LOG_WINDOW_MS = 10_000;

/** Logs at most one line per key per window. */
export class ThrottledLog {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly log: Logger,
    private readonly windowMs = LOG_WINDOW_MS,
  ) {}

  /** Warns `msg` with `fields` unless `key` logged within the window (then only counts it). */
  warn(key: string, fields: Record<string, unknown>, msg: string, nowMs = Date.now()): void {
    this.emit('warn', key, fields, msg, nowMs);
  }

  /** Logs `msg` with `fields` at error level unless `key` logged within the window (then only counts it). */
  error(key: string, fields: Record<string, unknown>, msg: string, nowMs = Date.now()): void {
    this.emit('error', key, fields, msg, nowMs);
  }

  private emit(level: 'warn' | 'error', key: string, fields: Record<string, unknown>, msg: string, nowMs: number): void {
    const seen = this.last.get(key);
    if (seen && nowMs - seen.at < this.windowMs) {
      seen.suppressed += 1;
      return;
    }
    this.log[level]({ ...fields, suppressed: seen?.suppressed ?? 0 }, msg);
    this.last.set(key, { at: nowMs, suppressed: 0 });
    if (this.last.size > 10_000) this.last.clear();
  }
}
