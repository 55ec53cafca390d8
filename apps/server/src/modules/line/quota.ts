/**
 * The monthly push quota, checked before every push: LINE's quota
 * and consumption are fetched per channel and kept LINE_QUOTA_CACHE_MS, counting our own pushes in between, so a
 * busy outbox does not ask LINE twice per message. A group chat push counts as one here though LINE counts each
 * member; the next refresh corrects that, and LINE's own 429 is the last word (push-worker.ts).
 */
import type { TLineClient } from './client.js';
import type { TLineChannel } from './official-account.js';

/** How long a fetched quota is trusted, in milliseconds. */
export const LINE_QUOTA_CACHE_MS = 60_000;

interface TCached {
  limit: number | null;
  used: number;
  fetchedAt: number;
}

/** Per-process cache of channel quotas. */
export class LineQuotaGate {
  private readonly cache = new Map<string, TCached>();

  private key(channel: TLineChannel): string {
    return `${channel.tenantId}:${channel.channelId}`;
  }

  /**
   * True when the channel may push one more message this month.
   * @throws LineApiError or a network error when the quota cannot be read (the push is retried later).
   */
  async allows(channel: TLineChannel, client: TLineClient, now = Date.now()): Promise<boolean> {
    let entry = this.cache.get(this.key(channel));
    if (!entry || now - entry.fetchedAt >= LINE_QUOTA_CACHE_MS) {
      entry = { ...(await client.quota()), fetchedAt: now };
      this.cache.set(this.key(channel), entry);
    }
    return entry.limit === null || entry.used < entry.limit;
  }

  /** Counts one push sent. */
  consumed(channel: TLineChannel): void {
    const entry = this.cache.get(this.key(channel));
    if (entry) entry.used += 1;
  }

  /** LINE said the month's limit is reached: no more pushes until the cache expires and LINE says otherwise. */
  exhausted(channel: TLineChannel, now = Date.now()): void {
    const entry = this.cache.get(this.key(channel));
    this.cache.set(this.key(channel), { limit: entry?.limit ?? 0, used: Math.max(entry?.used ?? 0, entry?.limit ?? 0), fetchedAt: now });
  }
}
