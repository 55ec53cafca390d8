/**
 * A token bucket: `ratePerS` tokens a second refill a bucket of `burst`. Ingest takes one token per telemetry
 * point (DEVICE_RATE_POINTS_PER_S / DEVICE_RATE_BURST_POINTS). A dozen lines, so not worth a dependency
 * (docs/decisions/ingest.md).
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  /** A full bucket at time `nowMs`. */
  constructor(
    private readonly ratePerS: number,
    private readonly burst: number,
    nowMs: number = Date.now(),
  ) {
    this.tokens = burst;
    this.at = nowMs;
  }

  /** Takes `n` tokens if the bucket holds them (answers true), else takes none (false). */
  take(n: number, nowMs: number = Date.now()): boolean {
    const elapsedS = Math.max(0, nowMs - this.at) / 1000;
    this.tokens = Math.min(this.burst, this.tokens + elapsedS * this.ratePerS);
    this.at = nowMs;
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }
}
