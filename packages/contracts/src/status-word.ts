/**
 * Device status word (spec §3 "Device status", §4 "Status value is 40 bits in binary, left padded; each status
 * group reads a slice counted from the right", §5/§9 limits).
 */
import { z } from 'zod';
import { decodeStatusWord, readStatusSlice, STATUS_WORD_MAX, statusWordToBinary, type TDecodedStatus } from './status-word-decode.js';
import { MAX_STATUS_LINES, STATUS_NAME_MAX, STATUS_VALUE_MAX, STATUS_WORD_BITS } from './limits.js';

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

export { decodeStatusWord, readStatusSlice, STATUS_WORD_MAX, statusWordToBinary, type TDecodedStatus };
