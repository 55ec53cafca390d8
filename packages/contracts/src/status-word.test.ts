import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeStatusWord, readStatusSlice, STATUS_WORD_MAX, statusWordToBinary, ZStatusGroup, ZStatusGroups } from './status-word.js';

describe('status word (40 bits, slices counted from the right)', () => {
  it('reads a slice from the right of the left-padded binary word', () => {
    // binary ...0000 1101 0110: bits 0-1 = 10 (2), bits 2-4 = 101 (5), bit 7 = 1
    const word = 0b1101_0110;
    expect(statusWordToBinary(word)).toBe(`${'0'.repeat(32)}11010110`);
    expect(readStatusSlice(word, 0, 2)).toBe(2);
    expect(readStatusSlice(word, 2, 3)).toBe(5);
    expect(readStatusSlice(word, 7, 1)).toBe(1);
    expect(readStatusSlice(STATUS_WORD_MAX, 24, 16)).toBe(65535);
  });

  it('agrees with slicing the binary string, for every word and slice', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: STATUS_WORD_MAX }),
        fc.integer({ min: 0, max: 39 }),
        fc.integer({ min: 1, max: 16 }),
        (word, index, length) => {
          fc.pre(index + length <= 40);
          const bits = statusWordToBinary(word);
          const expected = Number.parseInt(bits.slice(40 - index - length, 40 - index), 2);
          expect(readStatusSlice(word, index, length)).toBe(expected);
        },
      ),
    );
  });

  it('decodes groups to labels, null for an undefined value', () => {
    const groups = ZStatusGroups.parse([
      {
        name: 'run',
        index: 0,
        bytesLength: 2,
        values: [
          { value: 0, label: 'stopped' },
          { value: 1, label: 'running' },
        ],
      },
      { name: 'door', index: 2, bytesLength: 1, values: [{ value: 1, label: 'open' }] },
    ]);
    const decoded = decodeStatusWord(0b011, groups);
    expect(decoded.map((d) => [d.name, d.raw, d.binary, d.label])).toEqual([
      ['run', 3, '11', null],
      ['door', 0, '0', null],
    ]);
    expect(decodeStatusWord(0b101, groups).map((d) => d.label)).toEqual(['running', 'open']);
  });

  it('refuses words outside 40 bits', () => {
    expect(() => statusWordToBinary(STATUS_WORD_MAX + 1)).toThrow(RangeError);
    expect(() => statusWordToBinary(-1)).toThrow(RangeError);
    expect(() => readStatusSlice(1.5, 0, 1)).toThrow(RangeError);
  });

  it('validates a group: slice inside 40 bits, values fit the slice and are unique, limits of §5', () => {
    const ok = { name: 'x'.repeat(36), index: 24, bytesLength: 16, values: [{ value: 65535, label: 'max' }] };
    expect(ZStatusGroup.safeParse(ok).success).toBe(true);
    expect(ZStatusGroup.safeParse({ ...ok, name: 'x'.repeat(37) }).success).toBe(false);
    expect(ZStatusGroup.safeParse({ ...ok, index: 25 }).success).toBe(false);
    expect(ZStatusGroup.safeParse({ ...ok, bytesLength: 2 }).success).toBe(false);
    expect(ZStatusGroup.safeParse({ ...ok, values: [{ value: 65536, label: 'over' }] }).success).toBe(false);
    expect(
      ZStatusGroup.safeParse({
        ...ok,
        values: [
          { value: 1, label: 'a' },
          { value: 1, label: 'b' },
        ],
      }).success,
    ).toBe(false);
    const line = { name: 'l', index: 0, bytesLength: 1, values: [] };
    expect(ZStatusGroups.safeParse(Array(16).fill(line)).success).toBe(true);
    expect(ZStatusGroups.safeParse(Array(17).fill(line)).success).toBe(false);
  });
});
