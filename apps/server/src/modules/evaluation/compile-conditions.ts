/**
 * Closure compilation of conditions (docs/decisions/rules.md "Meaning"): compare, status, value tests of
 * non-numeric keys, and/or/not in Kleene logic, held. A sub-tree without `held` is pure, so `and`/`or` may stop early there; with `held` every part runs,
 * because a held node must see every evaluation to know that its condition never stopped.
 */
import { readStatusSlice, STATUS_WORD_BITS, type TRuleCondition } from '@tessera/contracts';
import { compileCompare } from './compile-compare.js';
import { assertDepth, compileNum, RuleProgramError, type TRuleScope } from './compile-values.js';
import type { TCondFn } from './frame.js';
import { valueContains, valuesEqual } from './value-tests.js';
import { FALSE as F0, kleeneAnd, kleeneOr, TRUE as T0, UNKNOWN as U0, type TTruth } from './truth.js';

// Module-local copies: closures then read constants, not imported bindings (which a transpiler may turn into
// getters — ten times slower in the hot path, bench/rules).
const FALSE = F0;
const TRUE = T0;
const UNKNOWN = U0;

/** A compiled condition and whether it is pure (contains no `held`). */
interface TCondNode {
  fn: TCondFn;
  pure: boolean;
}

/** Compiles a condition. @throws RuleProgramError when too deep or of an unknown type. */
export function compileCondition(c: TRuleCondition, scope: TRuleScope, depth: number): TCondNode {
  assertDepth(depth);
  switch (c.type) {
    case 'compare':
      return { fn: compileCompare(c.op, compileNum(c.left, scope, depth + 1), compileNum(c.right, scope, depth + 1)), pure: true };
    case 'status':
      scope.usesStatus = true;
      return { fn: compileStatus(c), pure: true };
    case 'value':
      scope.keys.add(c.key);
      if (c.op === 'changed') scope.momentary = true;
      return { fn: compileValueTest(c, scope.symbols.value(c.key)), pure: true };
    case 'and':
    case 'or': {
      const parts = c.conditions.map((p) => compileCondition(p, scope, depth + 1));
      if (parts.length === 0) throw new RuleProgramError(`${c.type} without conditions`);
      const pure = parts.every((p) => p.pure);
      const fns = parts.map((p) => p.fn);
      return { fn: c.type === 'and' ? compileAnd(fns, pure) : compileOr(fns, pure), pure };
    }
    case 'not': {
      const inner = compileCondition(c.condition, scope, depth + 1);
      const a = inner.fn;
      return { fn: (f) => notOf(a(f)), pure: inner.pure };
    }
    case 'held':
      return { fn: compileHeld(c.condition, c.for_s, scope, depth), pure: false };
    default:
      throw new RuleProgramError('unknown condition node');
  }
}

function notOf(x: TTruth): TTruth {
  return x === UNKNOWN ? UNKNOWN : x === TRUE ? FALSE : TRUE;
}

/** Bits `index..index+length-1` of the status word (readStatusSlice) `op` the raw `value`. */
function compileStatus(c: Extract<TRuleCondition, { type: 'status' }>): TCondFn {
  const { index, length, value } = c;
  if (index < 0 || length < 1 || index + length > STATUS_WORD_BITS) return () => UNKNOWN;
  const wantEqual = c.op === 'eq';
  return (f) => {
    const word = f.status;
    if (Number.isNaN(word)) return UNKNOWN;
    let raw: number;
    try {
      raw = readStatusSlice(word, index, length);
    } catch {
      return UNKNOWN;
    }
    return (raw === value) === wantEqual ? TRUE : FALSE;
  };
}

/**
 * A value test of the non-numeric key at frame index `i`: `equals` / `contains` the rule's value (valuesEqual,
 * valueContains), unknown while the key has no value; `changed` as the frame says (fillValueFrame).
 */
function compileValueTest(c: Extract<TRuleCondition, { type: 'value' }>, i: number): TCondFn {
  const want = c.value;
  if (c.op === 'changed') {
    return (f) => {
      const d = f.changed[i];
      return d === 1 ? TRUE : d === 0 ? FALSE : UNKNOWN;
    };
  }
  if (want === null) return () => UNKNOWN;
  const test = c.op === 'equals' ? valuesEqual : valueContains;
  return (f) => {
    const v = f.raw[i];
    if (v === undefined) return UNKNOWN;
    return test(v, want) ? TRUE : FALSE;
  };
}

function compileAnd(fns: TCondFn[], pure: boolean): TCondFn {
  if (fns.length === 2 && pure) {
    const [a, b] = fns;
    return (f) => {
      const x = a(f);
      if (x === FALSE) return FALSE;
      const y = b(f);
      if (y === FALSE) return FALSE;
      return x === UNKNOWN || y === UNKNOWN ? UNKNOWN : TRUE;
    };
  }
  return (f) => {
    let acc: TTruth = TRUE;
    for (const fn of fns) {
      acc = kleeneAnd(acc, fn(f));
      if (acc === FALSE && pure) return FALSE;
    }
    return acc;
  };
}

function compileOr(fns: TCondFn[], pure: boolean): TCondFn {
  if (fns.length === 2 && pure) {
    const [a, b] = fns;
    return (f) => {
      const x = a(f);
      if (x === TRUE) return TRUE;
      const y = b(f);
      if (y === TRUE) return TRUE;
      return x === UNKNOWN || y === UNKNOWN ? UNKNOWN : FALSE;
    };
  }
  return (f) => {
    let acc: TTruth = FALSE;
    for (const fn of fns) {
      acc = kleeneOr(acc, fn(f));
      if (acc === TRUE && pure) return TRUE;
    }
    return acc;
  };
}

/**
 * `held`: true at evaluation time t when the inner condition has been true at every evaluation since some time
 * ≤ t − for_s; false while it has not been true long enough; false or unknown (the inner value) resets it.
 */
function compileHeld(inner: TRuleCondition, forS: number, scope: TRuleScope, depth: number): TCondFn {
  const a = compileCondition(inner, scope, depth + 1).fn;
  const slot = scope.held++;
  const forMs = forS * 1000;
  return (f) => {
    const x = a(f);
    if (x !== TRUE) {
      f.held[slot] = Number.NaN;
      return x;
    }
    let since = f.held[slot];
    if (Number.isNaN(since)) {
      since = f.t;
      f.held[slot] = since;
    }
    return f.t - since >= forMs ? TRUE : FALSE;
  };
}
