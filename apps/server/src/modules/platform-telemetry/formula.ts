/**
 * Platform-telemetry formulas (docs/platform-telemetry.md "Formula"): the platform rules' expression language
 * (evaluation/flows/expression.ts — parsed by jsep, compiled into closures, never `eval`) where `alias.key` (or
 * `alias["key-with-dashes"]`) reads the latest value (v1) of a mounted device's key, and only the numeric functions
 * FORMULA_FUNCTIONS may be called. A problem carries its position in the text, so the editor can mark it.
 */
import { FORMULA_FUNCTIONS, type TFormulaProblem } from '@tessera/contracts';
import jsep from 'jsep';
import { compileExpression, FlowCompileError, FlowRunError } from '../evaluation/flows/expression.js';

const FUNCTIONS = new Set<string>(FORMULA_FUNCTIONS);

/** A mounted device as the compiler sees it: its alias and the keys it may read. */
export interface TFormulaDevice {
  alias: string;
  keys: readonly string[];
}

/** A compiled formula: the keys it reads (`alias.key`) and its evaluation. */
export interface TCompiledFormula {
  /** Every `alias.key` the formula reads. */
  reads: ReadonlySet<string>;
  /**
   * The value on `values` (`alias.key` → v1), times `coefficient`.
   * @throws FlowRunError when an input has no value yet, on ÷ 0, or when the result is not a finite number.
   */
  evaluate(values: ReadonlyMap<string, number>, coefficient: number): number;
}

/** A formula that does not compile: the problem, with its position. */
export class FormulaError extends Error {
  constructor(readonly problem: TFormulaProblem) {
    super(problem.message);
  }
}

/**
 * Compiles `formula` over `devices`.
 * @throws FormulaError on a syntax error, a name that is not a mounted device's key, a function outside
 *   FORMULA_FUNCTIONS, or any construct outside the language.
 */
export function compileFormula(formula: string, devices: readonly TFormulaDevice[]): TCompiledFormula {
  const known = new Set(devices.flatMap((d) => d.keys.map((k) => `${d.alias}.${k}`)));
  let run: ReturnType<typeof compileExpression>;
  try {
    run = compileExpression(formula, known, { dottedNames: true, functions: FUNCTIONS });
  } catch (err) {
    if (!(err instanceof FlowCompileError)) throw err;
    throw new FormulaError({ code: err.code, params: err.params, message: err.message, position: positionOf(formula, err) });
  }
  const reads = new Set<string>();
  collectNames(jsep(formula), reads);
  return {
    reads,
    evaluate(values, coefficient) {
      const result = run({ get: (name) => values.get(name), now: () => Date.now() });
      if (typeof result !== 'number') throw new FlowRunError(`the formula gives ${typeof result}, not a number`);
      const value = result * coefficient;
      if (!Number.isFinite(value)) throw new FlowRunError('the formula times the coefficient is not a finite number');
      return value;
    },
  };
}

/** The `alias.key` names a (compiled, so valid) tree reads. */
function collectNames(node: jsep.Expression, into: Set<string>): void {
  if (node.type === 'MemberExpression') {
    const m = node as jsep.MemberExpression;
    const object = (m.object as jsep.Identifier).name;
    const property = m.computed ? String((m.property as jsep.Literal).value) : (m.property as jsep.Identifier).name;
    into.add(`${object}.${property}`);
    return;
  }
  for (const value of Object.values(node)) {
    if (Array.isArray(value))
      for (const v of value) if (v && typeof v === 'object' && 'type' in v) collectNames(v as jsep.Expression, into);
    if (value && typeof value === 'object' && 'type' in value) collectNames(value as jsep.Expression, into);
  }
}

/** Where in `formula` the problem `err` lies: the parser's index, or the first place the offending name is written. */
function positionOf(formula: string, err: FlowCompileError): number | null {
  if (err.code === 'syntax') return typeof err.params.index === 'number' ? err.params.index : null;
  const name = err.params.name;
  if (typeof name !== 'string') return null;
  const [object, ...rest] = name.split('.');
  const property = rest.join('.');
  const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern =
    err.code === 'unknown_function' || err.code === 'arity'
      ? `\\b${escapeRegExp(name)}\\s*\\(`
      : property
        ? `\\b${escapeRegExp(object)}\\s*(\\.\\s*${escapeRegExp(property)}\\b|\\[\\s*["']${escapeRegExp(property)}["']\\s*\\])`
        : `\\b${escapeRegExp(name)}\\b`;
  const found = new RegExp(pattern).exec(formula);
  return found ? found.index : null;
}
