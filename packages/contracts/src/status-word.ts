/**
 * Device status word (spec §3 "Device status", §4 "Status value is 40 bits in binary, left padded; each status
 * group reads a slice counted from the right", §5/§9 limits).
 */
import { z } from 'zod';
import { MAX_STATUS_LINES, STATUS_NAME_MAX, STATUS_VALUE_MAX, STATUS_WORD_BITS } from './limits.js';

/** The largest status word, 2^40 − 1 (exact in a JS number). */
export const STATUS_WORD_MAX = 2 ** STATUS_WORD_BITS - 1;

/** One value of a status group: the raw `value` and its `label`. */
export const ZStatusValue = z.object({
  value: z.number().int().min(0).max(STATUS_VALUE_MAX),
  label: z.string().trim().min(1).max(STATUS_NAME_MAX),
});

/**
 * A status group (one status line): `index` = first bit counted from the right (0-based), `bytesLength` = the
 * slice's length in bits (the spec's field name; 1–16 since a value is at most 65535). Values must fit the slice
 * and their binary codes must be unique.
 */
export const ZStatusGroup = z
  .object({
    name: z.string().trim().min(1).max(STATUS_NAME_MAX),
    index: z
      .number()
      .int()
      .min(0)
      .max(STATUS_WORD_BITS - 1),
    bytesLength: z.number().int().min(1).max(16),
    values: z.array(ZStatusValue).max(2 ** 16),
  })
  .superRefine((g, ctx) => {
    if (g.index + g.bytesLength > STATUS_WORD_BITS) {
      ctx.addIssue({ code: 'custom', path: ['bytesLength'], message: `slice passes bit ${STATUS_WORD_BITS}` });
    }
    const seen = new Set<number>();
    g.values.forEach((v, i) => {
      if (v.value >= 2 ** g.bytesLength) {
        ctx.addIssue({ code: 'custom', path: ['values', i, 'value'], message: 'does not fit the slice' });
      }
      if (seen.has(v.value)) {
        ctx.addIssue({ code: 'custom', path: ['values', i, 'value'], message: 'binary code must be unique' });
      }
      seen.add(v.value);
    });
  });
export type TStatusGroup = z.infer<typeof ZStatusGroup>;

/** A project's status definition: at most 16 lines. */
export const ZStatusGroups = z.array(ZStatusGroup).max(MAX_STATUS_LINES);

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
export function decodeStatusWord(word: number, groups: readonly TStatusGroup[]): TDecodedStatus[] {
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
