/**
 * How often ingest writes a device's `last_seen_at` (docs/decisions/ingest.md "Heard-from time"). Every batch used
 * to update the row of each device it held: under 1-point load from 100 devices that is a hundred row versions
 * of `devices` per batch, each row locked until the batch's commit is flushed — so concurrent batches, which hold
 * the same devices, queued on each other. A device's row is now written by a batch only when something on it
 * changes that readers need: its first batch in this process (first_seen_at), a status word, or a heard-from time
 * at least {@link LAST_SEEN_WRITE_INTERVAL_MS} past the one this process last committed. `last_seen_at` is so at most
 * that much behind the newest receive time — far inside the online window (contracts DEVICE_ONLINE_WINDOW_MS,
 * 2 minutes), which is all it decides. Per process: another replica keeps its own, and the column takes the greatest.
 */

/** The most `last_seen_at` lags the newest committed receive time of a device, ms. */
export const LAST_SEEN_WRITE_INTERVAL_MS = 1_000;

/** Per device, the `last_seen_at` this process last committed (epoch ms), and whether a batch must write it again. */
export class LastSeenWrites {
  private readonly written = new Map<number, number>();

  /** `intervalMs`: how far a new heard-from time must be past the committed one to be written (default 1 s). */
  constructor(private readonly intervalMs = LAST_SEEN_WRITE_INTERVAL_MS) {}

  /** Whether a batch whose newest receive time of `deviceId` is `lastSeenMs` may leave the device's row alone. */
  isCurrent(deviceId: number, lastSeenMs: number): boolean {
    const committed = this.written.get(deviceId);
    return committed !== undefined && lastSeenMs - committed < this.intervalMs;
  }

  /** A batch that wrote `deviceId`'s row with heard-from time `lastSeenMs` committed. */
  committed(deviceId: number, lastSeenMs: number): void {
    const held = this.written.get(deviceId);
    if (held === undefined || lastSeenMs > held) this.written.set(deviceId, lastSeenMs);
  }
}
