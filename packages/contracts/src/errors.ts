/**
 * Error codes of the API. The spec's own (§8) keep their names; the rest are Tessera's and stable.
 * Every error body is `{ code, message }` ({@link ZErrorBody}); never a stack trace.
 */
import { z } from 'zod';

export { ErrorCode, type TErrorCode } from './error-codes.js';

/**
 * The body of every 4xx/5xx response. `details` lists field errors for VALIDATION_FAILED; a field error inside a
 * text (a formula) may say where: `position`, a 0-based character index; a flow problem (RULE_APPLY_FAILED) carries
 * its `code` and `params`, which the console says in the reader's language.
 */
export const ZErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  details: z
    .array(
      z.object({
        path: z.string(),
        message: z.string(),
        position: z.number().int().optional(),
        /** A problem code the console translates (a flow problem's code, contracts' flow-problems.ts). */
        code: z.string().optional(),
        /** The code's parameters (names, numbers) for the translated text. */
        params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      }),
    )
    .optional(),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;
