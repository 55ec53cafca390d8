/**
 * Decoding the 40-bit status word (spec §4) by a project's status groups. In a module of its own, without zod: the
 * console's device twin (live status) decodes it without loading classic zod. status-word.ts re-exports it.
 */
import { STATUS_WORD_BITS } from './limits.js';

/**
 * What decoding reads of a status group: status-word.ts `TStatusGroup` (checked by `ZStatusGroup`) has this shape.
 * Written out here so that this module imports nothing of status-word.ts, which re-exports it.
 */
export interface TStatusGroupSlice {
  name: string;
  /** The slice's first bit, counted from the right (0-based). */
  index: number;
  /** The slice's width in bits. */
  bytesLength: number;
  values: readonly { value: number; label: string }[];
}

/** The largest status word, 2^40 − 1 (exact in a JS number). */
export const STATUS_WORD_MAX = 2 ** STATUS_WORD_BITS - 1;

/** A decoded status line. */
export interface TDecodedStatus {
  name: string;
  index: number;
  bytesLength: number;
  /** The slice's value. */
  raw: number;
  /** The slice in binary, left-padded to `bytesLength`. */
  binary: string;
  /** The label of the matching value, or null when the value is undefined. */
  label: string | null;
}

/**
 * The 40-bit word as a binary string, left-padded with zeros (spec §4).
 * @throws RangeError when `word` is not an integer in 0..2^40−1.
 */
export function statusWordToBinary(word: number): string {
  assertStatusWord(word);
  return word.toString(2).padStart(STATUS_WORD_BITS, '0');
}

/**
 * Reads `length` bits starting at bit `index` counted from the right.
 * @throws RangeError when the word is out of range or the slice passes bit 40.
 */
export function readStatusSlice(word: number, index: number, length: number): number {
  assertStatusWord(word);
  if (index < 0 || length < 1 || index + length > STATUS_WORD_BITS) throw new RangeError('slice outside 40 bits');
  return Math.floor(word / 2 ** index) % 2 ** length;
}

/**
 * Decodes a status word by a project's status groups.
 * @throws RangeError when `word` is not an integer in 0..2^40−1.
 */
export function decodeStatusWord(word: number, groups: readonly TStatusGroupSlice[]): TDecodedStatus[] {
  return groups.map((g) => {
    const raw = readStatusSlice(word, g.index, g.bytesLength);
    return {
      name: g.name,
      index: g.index,
      bytesLength: g.bytesLength,
      raw,
      binary: raw.toString(2).padStart(g.bytesLength, '0'),
      label: g.values.find((v) => v.value === raw)?.label ?? null,
    };
  });
}

function assertStatusWord(word: number): void {
  if (!Number.isInteger(word) || word < 0 || word > STATUS_WORD_MAX) {
    throw new RangeError(`a status word is an integer in 0..${STATUS_WORD_MAX}`);
  }
}
