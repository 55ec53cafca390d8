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
});
