import { describe, expect, it } from 'vitest';
import { cachedLookup, type TCacheEntry, type TCacheLimits } from './refreshing-cache.js';

const limits: TCacheLimits = { ttlMs: 60_000, missTtlMs: 1_000, maxEntries: 100 };

describe('the refreshing look-up cache', () => {
  it('shares one load between concurrent look-ups and reuses the found value', async () => {
    const map = new Map<string, TCacheEntry<string | null>>();
    let loads = 0;
    const load = async () => {
      loads += 1;
      return 'row';
    };
    const answers = await Promise.all([1, 2, 3].map(() => cachedLookup(map, 'k', limits, load)));
    expect(answers).toEqual(['row', 'row', 'row']);
    expect(await cachedLookup(map, 'k', limits, load)).toBe('row');
    expect(loads).toBe(1);
  });

  it('forgets a failed load, so the next look-up reads again', async () => {
    const map = new Map<string, TCacheEntry<string | null>>();
    await expect(cachedLookup(map, 'k', limits, () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(map.size).toBe(0);
    expect(await cachedLookup(map, 'k', limits, async () => 'row')).toBe('row');
  });

  it('reads the database on every look-up with a TTL of 0', async () => {
    const map = new Map<string, TCacheEntry<number | null>>();
    let loads = 0;
    const load = async () => ++loads;
    const noCache = { ...limits, ttlMs: 0 };
    await cachedLookup(map, 'k', noCache, load);
    await new Promise((r) => setTimeout(r, 2));
    expect(await cachedLookup(map, 'k', noCache, load)).toBe(2);
  });
});
