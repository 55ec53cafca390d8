/**
 * Comparisons (`compare` nodes): `left op right` on numbers, unknown when either side is NaN. The common shapes —
 * a telemetry value against a constant (every simple rule), two constants — get their own closures so that a
 * typical condition costs a few array reads (bench/rules).
 */
import type { TCompareOp } from '@tessera/contracts';
import type { TCondFn } from './frame.js';
import { FALSE as F0, TRUE as T0, UNKNOWN as U0, type TTruth } from './truth.js';
import { RuleProgramError, type TNumNode } from './compile-values.js';

// Module-local copies: closures then read constants, not imported bindings (which a transpiler may turn into
// getters — ten times slower in the hot path, bench/rules).
const FALSE = F0;
const TRUE = T0;
const UNKNOWN = U0;

/** `a op b` for two known numbers. */
function predicate(op: TCompareOp): (a: number, b: number) => boolean {
  switch (op) {
    case 'gt':
      return (a, b) => a > b;
    case 'gte':
      return (a, b) => a >= b;
    case 'lt':
      return (a, b) => a < b;
    case 'lte':
      return (a, b) => a <= b;
    case 'eq':
      return (a, b) => a === b;
    case 'neq':
      return (a, b) => a !== b;
    default:
      throw new RuleProgramError('unknown comparison');
  }
}

/** `values[i] op c`. NaN (no value) fails every ordered test, so the NaN check sits on the false path only. */
function telemetryVsConstant(op: TCompareOp, i: number, c: number): TCondFn {
  switch (op) {
    case 'gt':
      return (f) => {
        const a = f.values[i];
        return a > c ? TRUE : Number.isNaN(a) ? UNKNOWN : FALSE;
      };
    case 'gte':
      return (f) => {
        const a = f.values[i];
        return a >= c ? TRUE : Number.isNaN(a) ? UNKNOWN : FALSE;
      };
    case 'lt':
      return (f) => {
        const a = f.values[i];
        return a < c ? TRUE : Number.isNaN(a) ? UNKNOWN : FALSE;
      };
    case 'lte':
      return (f) => {
        const a = f.values[i];
        return a <= c ? TRUE : Number.isNaN(a) ? UNKNOWN : FALSE;
      };
    case 'eq':
      return (f) => {
        const a = f.values[i];
        return a === c ? TRUE : Number.isNaN(a) ? UNKNOWN : FALSE;
      };
    case 'neq':
      return (f) => {
        const a = f.values[i];
        return Number.isNaN(a) ? UNKNOWN : a !== c ? TRUE : FALSE;
      };
    default:
      throw new RuleProgramError('unknown comparison');
  }
}

/** The mirror of `op` (`c op x` is `x mirror(op) c`). */
function mirror(op: TCompareOp): TCompareOp {
  switch (op) {
    case 'gt':
      return 'lt';
    case 'gte':
      return 'lte';
    case 'lt':
      return 'gt';
    case 'lte':
      return 'gte';
    default:
      return op;
  }
}

/** Compiles `left op right`. */
export function compileCompare(op: TCompareOp, left: TNumNode, right: TNumNode): TCondFn {
  const test = predicate(op);
  if (left.kind === 'constant' && right.kind === 'constant') {
    const a = left.at;
    const b = right.at;
    const truth: TTruth = Number.isNaN(a) || Number.isNaN(b) ? UNKNOWN : test(a, b) ? TRUE : FALSE;
    return () => truth;
  }
  // A constant NaN (a property that does not exist) makes the comparison unknown whatever the other side.
  if (left.kind === 'telemetry' && right.kind === 'constant' && !Number.isNaN(right.at)) return telemetryVsConstant(op, left.at, right.at);
  if (left.kind === 'constant' && right.kind === 'telemetry' && !Number.isNaN(left.at))
    return telemetryVsConstant(mirror(op), right.at, left.at);
  const l = left.fn;
  const r = right.fn;
  return (f) => {
    const a = l(f);
    const b = r(f);
    if (Number.isNaN(a) || Number.isNaN(b)) return UNKNOWN;
    return test(a, b) ? TRUE : FALSE;
  };
}
