import { describe, expect, it } from 'vitest';
import { valueTestAfter } from './rules-values.js';

describe('valueTestAfter', () => {
  const rule = { key: 'state', slot: 'v1' as const, op: 'equals', threshold: null, value: 'fault' };
  it('keeps each field a change leaves out and takes each it sets', () => {
    expect(valueTestAfter({}, rule)).toEqual(rule);
    expect(valueTestAfter({ key: 'temperature', op: 'gt', threshold: 40 }, rule)).toEqual({
      key: 'temperature',
      slot: 'v1',
      op: 'gt',
      threshold: 40,
      value: 'fault',
    });
  });
  it('clears the threshold or the value with null, unlike a field left out', () => {
    const numeric = { key: 'temperature', slot: 'v2' as const, op: 'gt', threshold: 40, value: null };
    expect(valueTestAfter({ op: 'changed', threshold: null }, numeric)).toMatchObject({ op: 'changed', threshold: null, slot: 'v2' });
    expect(valueTestAfter({ value: null }, rule).value).toBeNull();
  });
});
