/**
 * A device's rate allowance (docs/protocol.md "Limits and bad payloads"): a token bucket of `burst` points refilled
 * at `ratePerS` for every second that passes on the device's clock (the newest `ts` it has sent) or on the server's,
 * whichever advanced more since the last charge. Charging by the device's clock means a backlog the server reads
 * late (after a stall, or a store-and-forward upload) costs what it cost when the device produced it, so a device at
 * the documented rate is never refused however late it is read; a device whose own timestamps are denser than the
 * rate is limited. The device clock only counts forward (a jump back earns nothing until it passes its newest ts
 * again), and it cannot run more than DEVICE_TS_MAX_AHEAD_MS ahead of the server's (parse.ts refuses such points),
 * so replaying or inventing timestamps buys at most one burst. A dozen lines, so not worth a dependency.
 */
export class TokenBucket {
  private tokens: number;
  private deviceMs: number | null = null;
  private serverMs: number;

  /** A full bucket at server time `nowMs`. */
  constructor(
    private readonly ratePerS: number,
    private readonly burst: number,
    nowMs: number = Date.now(),
  ) {
    this.tokens = burst;
    this.serverMs = nowMs;
  }

  /**
   * Takes `n` tokens for points whose newest device timestamp is `deviceTs` (epoch ms), read at server time `nowMs`:
   * answers true when the bucket held them, else takes none and answers false.
   */
  take(n: number, deviceTs: number, nowMs: number = Date.now()): boolean {
    const deviceS = this.deviceMs === null ? 0 : Math.max(0, deviceTs - this.deviceMs) / 1000;
    const serverS = Math.max(0, nowMs - this.serverMs) / 1000;
    this.tokens = Math.min(this.burst, this.tokens + Math.max(deviceS, serverS) * this.ratePerS);
    this.deviceMs = Math.max(this.deviceMs ?? deviceTs, deviceTs);
    this.serverMs = Math.max(this.serverMs, nowMs);
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }
}

/** One token bucket per device, made full at its first message. */
export class DeviceBuckets {
  private readonly buckets = new Map<number, TokenBucket>();

  /** `ratePerS` points per second, `burst` points at most. */
  constructor(
    private readonly ratePerS: number,
    private readonly burst: number,
  ) {}

  /** Device `deviceId`'s bucket. */
  of(deviceId: number): TokenBucket {
    let b = this.buckets.get(deviceId);
    if (!b) {
      b = new TokenBucket(this.ratePerS, this.burst);
      this.buckets.set(deviceId, b);
    }
    return b;
  }
}

/** The newest `ts` of `points` (epoch ms): the device's clock the rate is taken by. */
export function newestTsOf(points: readonly { ts: number }[]): number {
  let newest = 0;
  for (const p of points) if (p.ts > newest) newest = p.ts;
  return newest;
}
