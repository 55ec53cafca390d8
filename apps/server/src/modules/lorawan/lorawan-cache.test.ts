import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cached, LORAWAN_CACHE_TTL_MS, LORAWAN_MISS_TTL_MS, type TEntry } from './lorawan-cache.js';

describe('the LoRaWAN look-up cache', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());
  const past = (ms: number) => vi.setSystemTime(Date.now() + ms);

  it('answers a found value past its TTL at once and reads it again once in the background', async () => {
    const map = new Map<string, TEntry<string | null>>();
    let reads = 0;
    let release: (v: string) => void = () => undefined;
    const load = () => {
      reads += 1;
      return reads === 1 ? Promise.resolve('v1') : new Promise<string>((r) => (release = r));
    };
    expect(await cached(map, 'k', load)).toBe('v1');
    past(LORAWAN_CACHE_TTL_MS * 1.3);
    // Stale: the old value, without waiting for the read under way; a second caller starts no second read.
    expect(await cached(map, 'k', load)).toBe('v1');
    expect(await cached(map, 'k', load)).toBe('v1');
    expect(reads).toBe(2);
    release('v2');
    await Promise.resolve();
    await Promise.resolve();
    expect(await cached(map, 'k', load)).toBe('v2');
    expect(reads).toBe(2);
  });

  it('reads a miss again before answering once its shorter TTL is past', async () => {
    const map = new Map<string, TEntry<string | null>>();
    const answers = [null, 'now set'];
    const load = vi.fn(async () => answers.shift() ?? null);
    expect(await cached(map, 'k', load)).toBeNull();
    expect(await cached(map, 'k', load)).toBeNull();
    past(LORAWAN_MISS_TTL_MS + 1);
    expect(await cached(map, 'k', load)).toBe('now set');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not bring back an entry a change notification forgot while it was read again', async () => {
    const map = new Map<string, TEntry<string | null>>();
    let release: (v: string) => void = () => undefined;
    let reads = 0;
    const load = () => {
      reads += 1;
      return reads === 1 ? Promise.resolve('old') : new Promise<string>((r) => (release = r));
    };
    await cached(map, 'k', load);
    past(LORAWAN_CACHE_TTL_MS * 1.3);
    await cached(map, 'k', load);
    map.delete('k');
    release('stale read');
    await Promise.resolve();
    await Promise.resolve();
    expect(map.has('k')).toBe(false);
  });

  it('keeps at most maxEntries, dropping the least recently loaded first', async () => {
    const map = new Map<string, TEntry<string | null>>();
    const load = (v: string) => () => Promise.resolve(v);
    await cached(map, 'a', load('a'), 2);
    await cached(map, 'b', load('b'), 2);
    // A hit does not reorder; a third key drops the oldest.
    expect(await cached(map, 'a', load('a again'), 2)).toBe('a');
    await cached(map, 'c', load('c'), 2);
    expect([...map.keys()]).toEqual(['b', 'c']);
    // Read again past its TTL, `b` becomes the newest: the next key drops `c`.
    past(LORAWAN_CACHE_TTL_MS * 1.3);
    await cached(map, 'b', load('b2'), 2);
    await Promise.resolve();
    await Promise.resolve();
    expect([...map.keys()]).toEqual(['c', 'b']);
    await cached(map, 'd', load('d'), 2);
    expect([...map.keys()]).toEqual(['b', 'd']);
  });
});
