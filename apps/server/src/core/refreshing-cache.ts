/**
 * A look-up cache whose entries are refreshed in the background (docs/connectivity.md, docs/decisions/lorawan.md
 * "Cost per uplink"): the device directory of ingest and the LoRaWAN webhook's integration and DevEUI look-ups. Their
 * changes are forgotten at once by a notification (device revocation, key changes, `tessera_lorawan_changed`), so the
 * TTL only bounds a lost notification, and:
 * - a found value (not null) past its TTL is still answered while it is read again, once — thousands of rows loaded
 *   in the same second (a burst of uplinks, each from another device) never expire together with each message then
 *   waiting on its own query (a 1–2 s p99 at 4,000 uplinks/s); TTLs are spread ±20 % for the same reason;
 * - a miss (null) is remembered `missTtlMs` at most and then read again before answering (a row just created must be
 *   found);
 * - a failed load is forgotten, so the next look-up reads again;
 * - an entry loaded or read again becomes the newest (Map order); past `maxEntries` the oldest is dropped.
 * With `ttlMs` 0 every look-up reads the database.
 */

/** A cached look-up: its answer (a promise, shared by concurrent callers) and when it goes stale (epoch ms). */
export interface TCacheEntry<T> {
  value: Promise<T>;
  expiresAt: number;
  /** True once the value is known to be found (not null). */
  found?: boolean;
  /** True while a found value past its TTL is being read again (it is still answered meanwhile). */
  refreshing?: boolean;
}

/** How long a found value and a miss are kept (ms), and how many entries a map holds at most. */
export interface TCacheLimits {
  ttlMs: number;
  missTtlMs: number;
  maxEntries: number;
}

/**
 * `key`'s value from `map`, loaded by `load` when absent or stale (see the file comment).
 * @returns the cached or loaded value; rejects with `load`'s error when a load fails (nothing is cached then).
 */
export function cachedLookup<K, T>(map: Map<K, TCacheEntry<T>>, key: K, limits: TCacheLimits, load: () => Promise<T>): Promise<T> {
  const hit = map.get(key);
  if (hit && (hit.expiresAt > Date.now() || hit.refreshing)) return hit.value;
  if (hit?.found && limits.ttlMs > 0) {
    hit.refreshing = true;
    const next = loading(load, limits, () => {
      hit.refreshing = false;
    });
    // Replaced unless a change notification forgot the entry meanwhile.
    next.value.then(
      () => {
        if (map.get(key) === hit) setNewest(map, key, next, limits.maxEntries);
      },
      () => undefined,
    );
    return hit.value;
  }
  const entry = loading(load, limits, (failed) => {
    if (map.get(key) === failed) map.delete(key);
  });
  setNewest(map, key, entry, limits.maxEntries);
  return entry.value;
}

/** Starts `load` as an entry not yet in any map: a miss is kept `missTtlMs` (at most `ttlMs`), a found value `ttlMs` ±20 %. */
function loading<T>(load: () => Promise<T>, limits: TCacheLimits, onFailure: (entry: TCacheEntry<T>) => void): TCacheEntry<T> {
  const entry: TCacheEntry<T> = { value: load(), expiresAt: Date.now() + limits.ttlMs * (0.8 + Math.random() * 0.4) };
  entry.value.then(
    (v) => {
      if (v === null) entry.expiresAt = Date.now() + Math.min(limits.ttlMs, limits.missTtlMs);
      else entry.found = true;
    },
    () => onFailure(entry),
  );
  return entry;
}

/** Sets `key` in `map` as its newest entry, first dropping the oldest while `map` holds `maxEntries` or more others. */
function setNewest<K, V>(map: Map<K, V>, key: K, value: V, maxEntries: number): void {
  map.delete(key);
  while (map.size >= maxEntries) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
  map.set(key, value);
}
