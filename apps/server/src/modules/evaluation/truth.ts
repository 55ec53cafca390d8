/**
 * Three-valued (Kleene) truth of a rule condition (docs/decisions/rules.md "Missing data is unknown, not false"):
 * numbers so that compiled conditions compare with `===` and never allocate. Only {@link TRUE} fires a rule.
 */

/** Definitely false. */
export const FALSE = 0;
/** Definitely true. */
export const TRUE = 1;
/** Not known: an operand is missing (no point yet, property or sensor removed, no status word, empty window). */
export const UNKNOWN = 2;
/** A truth value: {@link FALSE}, {@link TRUE} or {@link UNKNOWN}. */
export type TTruth = typeof FALSE | typeof TRUE | typeof UNKNOWN;

/** Kleene `and`: false if either is false, else unknown if either is unknown, else true. */
export function kleeneAnd(a: TTruth, b: TTruth): TTruth {
  if (a === FALSE || b === FALSE) return FALSE;
  return a === UNKNOWN || b === UNKNOWN ? UNKNOWN : TRUE;
}

/** Kleene `or`: true if either is true, else unknown if either is unknown, else false. */
export function kleeneOr(a: TTruth, b: TTruth): TTruth {
  if (a === TRUE || b === TRUE) return TRUE;
  return a === UNKNOWN || b === UNKNOWN ? UNKNOWN : FALSE;
}

/** Kleene `not`: swaps true and false; unknown stays unknown. */
export function kleeneNot(a: TTruth): TTruth {
  if (a === UNKNOWN) return UNKNOWN;
  return a === TRUE ? FALSE : TRUE;
}

/** A truth as a word for logs and tests. */
export function truthName(a: TTruth): 'false' | 'true' | 'unknown' {
  if (a === UNKNOWN) return 'unknown';
  return a === TRUE ? 'true' : 'false';
}
