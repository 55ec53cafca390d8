import { describe, expect, it } from 'vitest';
import { EPOCH_MS_MAX, findNul, ZEpochMsText, ZId, ZIdText } from './input.js';
import { ID_MAX } from './limits.js';

describe('request value rules', () => {
  it('reads an id from text in decimal digits only, 1 … 2^31 − 1', () => {
    expect(ZIdText.parse('7')).toBe(7);
    expect(ZIdText.parse(String(ID_MAX))).toBe(ID_MAX);
    for (const bad of ['0x10', '1e3', ' 7', '7 ', '+7', '7.0', '07', '0', '-1', '2147483648', '9007199254740991', '', 'abc', '7\u0000']) {
      expect(ZIdText.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('bounds body ids and epoch milliseconds by what the database and Date can hold', () => {
    expect(ZId.safeParse(ID_MAX).success).toBe(true);
    expect(ZId.safeParse(ID_MAX + 1).success).toBe(false);
    expect(ZId.safeParse(1.5).success).toBe(false);
    expect(ZEpochMsText.parse(String(EPOCH_MS_MAX))).toBe(EPOCH_MS_MAX);
    expect(ZEpochMsText.safeParse('8640000000000001').success).toBe(false);
    expect(ZEpochMsText.safeParse('9007199254740993').success).toBe(false);
  });

  it('finds NUL in any string of a value, keys included, and names where', () => {
    expect(findNul({ name: 'ok', items: [{ a: 'x' }, { a: 'b\u0000' }] }, 'body')).toBe('body.items.1.a');
    expect(findNul({ 'k\u0000': 1 }, 'query')).toBe('query.(key)');
    expect(findNul('a\u0000', 'params.id')).toBe('params.id');
    expect(findNul({ name: 'fine', n: 3, list: [null, true] }, 'body')).toBeNull();
    // deep values are searched without recursion
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNul(deep, 'body')).toMatch(/^body(\.0)+$/);
  });

  it('names the one NUL of generated values as a path walk from the root does', () => {
    // The path of each string and key, written out while walking down: what findNul must answer for the one NUL.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const make = (depth: number, at: string, places: { path: string; set: () => void }[]): unknown => {
      const r = random();
      if (depth > 4 || r < 0.3) {
        const holder = { s: `v${Math.floor(random() * 100)}` };
        places.push({ path: at || '(value)', set: () => (holder.s += '\u0000') });
        return holder;
      }
      if (r < 0.6) {
        return Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => make(depth + 1, `${at}.${i}`, places));
      }
      const out: Record<string, unknown> = {};
      for (let i = 0; i < 1 + Math.floor(random() * 3); i++) out[`k${i}`] = make(depth + 1, at ? `${at}.k${i}` : `k${i}`, places);
      return out;
    };
    // Holders stand for strings until one is chosen; then every holder becomes its string.
    const unwrap = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(unwrap);
      if (typeof v === 'object' && v !== null) {
        if ('s' in v && Object.keys(v).length === 1) return (v as { s: string }).s;
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]));
      }
      return v;
    };
    for (let run = 0; run < 300; run++) {
      const places: { path: string; set: () => void }[] = [];
      const root = run % 2 === 0 ? 'body' : '';
      const made = make(0, root, places);
      expect(findNul(unwrap(made), root)).toBeNull();
      const chosen = places[Math.floor(random() * places.length)] as (typeof places)[number];
      chosen.set();
      expect(findNul(unwrap(made), root)).toBe(chosen.path);
    }
  });
});
