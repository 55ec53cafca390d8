import { describe, expect, it } from 'vitest';
import { parseSampleWord, textToValues, valuesToText } from './statusText';

describe('status value text', () => {
  it('round-trips values', () => {
    const values = [
      { value: 0, label: 'Idle' },
      { value: 2, label: 'Fault' },
    ];
    expect(textToValues(valuesToText(values))).toEqual(values);
    expect(textToValues('')).toEqual([]);
  });
  it('refuses malformed parts', () => {
    expect(textToValues('0=Idle,x=Run')).toBeNull();
    expect(textToValues('0=')).toBeNull();
    expect(textToValues('0=a=b')).toBeNull();
  });
});

describe('parseSampleWord', () => {
  it('reads decimal, hex and binary', () => {
    expect(parseSampleWord('258')).toBe(258);
    expect(parseSampleWord('0x0102')).toBe(258);
    expect(parseSampleWord('0b1_0000_0010')).toBe(258);
    expect(parseSampleWord('0xFFFFFFFFFF')).toBe(2 ** 40 - 1);
  });
  it('answers null for anything else', () => {
    expect(parseSampleWord('12a')).toBeNull();
    expect(parseSampleWord('')).toBeNull();
    expect(parseSampleWord('-1')).toBeNull();
  });
});
