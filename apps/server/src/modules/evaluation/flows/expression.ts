/**
 * Expressions of platform rules (docs/platform-rules.md "Expressions"): parsed by jsep into a syntax tree, checked
 * and compiled into closures, once at apply. The language: numbers, strings in quotes, `true`/`false`, names of
 * variables and of the trigger's values, `+ - * / %`, comparisons, `== !=`, `&& || !`, `? :`, parentheses and calls
 * of the functions in FLOW_FUNCTIONS. No member access, no `this`, no array or object literals: a name is looked up
 * only in the run's own Map of variables, so no text a vendor writes reaches a JavaScript property — never `eval`,
 * never `Function`. Types are strict: `1 + "a"`, `!3` and `"a" < 2` are run errors, not coercions. A JSON value (the
 * trigger's value of a json key, or `json("…")`) is compared with `== !=` structurally and searched with `contains`
 * (evaluation/value-tests.ts, the project rules' meaning); `changed()` reads the scope.
 */
import { flowProblemMessage, type TFlowProblemCode, type TFlowProblemParams } from '@tessera/contracts';
import { FLOW_EXPRESSION_DEPTH_MAX, FLOW_FUNCTIONS, FLOW_STRING_MAX } from '@tessera/contracts';
import jsep from 'jsep';
import { valueContains, valuesEqual } from '../value-tests.js';

/** A JSON array or object in a run (the trigger's value of a json key, or what `json("…")` made). */
export type TFlowJson = readonly unknown[] | { readonly [member: string]: unknown };
/** A value in a run: a number (finite), a string, a boolean or a JSON array or object. */
export type TFlowValue = number | string | boolean | TFlowJson;

/** The names an expression reads, resolved per run. */
export interface TFlowScope {
  /** The value of `name`, or undefined when it has none yet. */
  get(name: string): TFlowValue | undefined;
  /** Server time in epoch ms (`now()`). */
  now(): number;
  /**
   * `changed()`: whether the trigger's value differs from the device's previous value of its key; null when the run
   * has none to compare (no previous point); absent when the run has no non-numeric trigger value.
   */
  changed?(): boolean | null;
}

/** A compiled expression. @throws FlowRunError on a type error, a missing value or a non-finite result. */
export type TCompiledExpression = (scope: TFlowScope) => TFlowValue;

/** A run error of one node (a bad cast, a type error, a missing value): the run stops there and says why. */
export class FlowRunError extends Error {}

/** A compile error of an expression: shown on its node, the rule is not applied. */
export class FlowCompileError extends Error {
  /** @param code the problem's code (contracts' FLOW_PROBLEM_MESSAGES), `params` its parameters. */
  constructor(
    readonly code: TFlowProblemCode,
    readonly params: TFlowProblemParams = {},
  ) {
    super(flowProblemMessage(code, params));
  }
}

const BINARY = new Set(['+', '-', '*', '/', '%', '<', '<=', '>', '>=', '==', '!=', '&&', '||']);
const FUNCTIONS = new Set<string>(FLOW_FUNCTIONS);

/** Arity of each function: [min, max]. */
const ARITY: Record<(typeof FLOW_FUNCTIONS)[number], [number, number]> = {
  abs: [1, 1],
  min: [1, 8],
  max: [1, 8],
  round: [1, 2],
  floor: [1, 1],
  ceil: [1, 1],
  sqrt: [1, 1],
  pow: [2, 2],
  now: [0, 0],
  contains: [2, 2],
  json: [1, 1],
  changed: [0, 0],
};

function typeName(v: TFlowValue): string {
  return typeof v === 'object' ? 'JSON value' : typeof v;
}

/** `json(text)`: the JSON value of a text (an object, array, number, string or boolean; `null` has no value here). */
function parseJson(v: TFlowValue): TFlowValue {
  if (typeof v !== 'string') throw new FlowRunError(`json needs a text, got ${typeName(v)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new FlowRunError('json: the text is not JSON');
  }
  if (parsed === null) throw new FlowRunError('json: null is not a value');
  return parsed as TFlowValue;
}

function num(v: TFlowValue, what: string): number {
  if (typeof v !== 'number') throw new FlowRunError(`${what} needs a number, got ${typeName(v)}`);
  return v;
}

function bool(v: TFlowValue, what: string): boolean {
  if (typeof v !== 'boolean') throw new FlowRunError(`${what} needs true or false, got ${typeName(v)}`);
  return v;
}

function finite(n: number, what: string): number {
  if (!Number.isFinite(n)) throw new FlowRunError(`${what} gives ${Number.isNaN(n) ? 'no number' : 'an infinite number'}`);
  return n;
}

function str(s: string): string {
  if (s.length > FLOW_STRING_MAX) throw new FlowRunError(`a text longer than ${FLOW_STRING_MAX} characters`);
  return s;
}

function compare(op: string, a: TFlowValue, b: TFlowValue): boolean {
  if (op === '==' || op === '!=') {
    if (typeof a !== typeof b) throw new FlowRunError(`${op} compares a ${typeName(a)} with a ${typeName(b)}`);
    return valuesEqual(a, b) === (op === '==');
  }
  if (typeof a === 'boolean' || typeof a === 'object' || typeof a !== typeof b)
    throw new FlowRunError(`${op} compares two numbers or two texts, got ${typeName(a)} and ${typeName(b)}`);
  const x = a as number | string;
  const y = b as number | string;
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    default:
      return x >= y;
  }
}

function arithmetic(op: string, a: TFlowValue, b: TFlowValue): TFlowValue {
  if (op === '+' && typeof a === 'string' && typeof b === 'string') return str(a + b);
  const x = num(a, op);
  const y = num(b, op);
  switch (op) {
    case '+':
      return finite(x + y, '+');
    case '-':
      return finite(x - y, '-');
    case '*':
      return finite(x * y, '*');
    case '/':
      if (y === 0) throw new FlowRunError('division by zero');
      return finite(x / y, '/');
    default:
      if (y === 0) throw new FlowRunError('remainder of a division by zero');
      return finite(x % y, '%');
  }
}

function callFunction(name: string, args: TFlowValue[]): TFlowValue {
  switch (name) {
    case 'abs':
      return Math.abs(num(args[0] as TFlowValue, 'abs'));
    case 'min':
      return Math.min(...args.map((a) => num(a, 'min')));
    case 'max':
      return Math.max(...args.map((a) => num(a, 'max')));
    case 'round': {
      const digits = args.length > 1 ? num(args[1] as TFlowValue, 'round') : 0;
      if (!Number.isInteger(digits) || digits < 0 || digits > 10) throw new FlowRunError('round keeps 0 to 10 decimals');
      const f = 10 ** digits;
      return finite(Math.round(num(args[0] as TFlowValue, 'round') * f) / f, 'round');
    }
    case 'floor':
      return Math.floor(num(args[0] as TFlowValue, 'floor'));
    case 'ceil':
      return Math.ceil(num(args[0] as TFlowValue, 'ceil'));
    case 'sqrt': {
      const x = num(args[0] as TFlowValue, 'sqrt');
      if (x < 0) throw new FlowRunError('square root of a negative number');
      return Math.sqrt(x);
    }
    case 'pow':
      return finite(num(args[0] as TFlowValue, 'pow') ** num(args[1] as TFlowValue, 'pow'), 'pow');
    case 'json':
      return parseJson(args[0] as TFlowValue);
    default: {
      const [hay, needle] = args;
      if (typeof hay === 'object') return valueContains(hay, needle);
      if (typeof hay !== 'string' || typeof needle !== 'string') throw new FlowRunError('contains needs two texts, or a JSON value first');
      return hay.includes(needle);
    }
  }
}

/** `changed()`: the scope's answer; a run error when the trigger has no value that is not a number. */
function changedOf(scope: TFlowScope): boolean {
  if (!scope.changed) throw new FlowRunError('changed() needs a trigger whose value is a text, a boolean or JSON');
  return scope.changed() ?? false;
}

/** Options of {@link compileExpression}. */
export interface TCompileOptions {
  /**
   * Whether `a.b` (or `a["b-c"]`) reads the name `a.b` — a device's key in a platform-telemetry formula. Still a
   * lookup in the run's Map, never a JavaScript property.
   */
  dottedNames?: boolean;
  /** The functions that may be called (default FLOW_FUNCTIONS). */
  functions?: ReadonlySet<string>;
  /** Collects the names of the functions the expression calls (the flow reads previous values for `changed`). */
  called?: Set<string>;
}

/** A syntax error's 0-based position in the text (jsep's `index`), when the parser gave one. */
export function syntaxErrorIndex(err: unknown): number | null {
  const index = (err as { index?: unknown }).index;
  return typeof index === 'number' ? index : null;
}

/**
 * Compiles `text` reading only `known` names (declared variables and trigger names).
 * @throws FlowCompileError on a syntax error (with `index`, its position), an unknown name or function, a construct
 *   outside the language, or nesting deeper than FLOW_EXPRESSION_DEPTH_MAX.
 */
export function compileExpression(text: string, known: ReadonlySet<string>, options: TCompileOptions = {}): TCompiledExpression {
  let tree: jsep.Expression;
  try {
    tree = jsep(text);
  } catch (err) {
    throw new FlowCompileError('syntax', { detail: (err as Error).message, ...indexParam(err) });
  }
  return compileNode(tree, known, 0, options);
}

function indexParam(err: unknown): { index?: number } {
  const index = syntaxErrorIndex(err);
  return index === null ? {} : { index };
}

/** `a.b` or `a["b"]` as the name `a.b`, or null for any other member expression. */
function dottedName(node: jsep.MemberExpression): string | null {
  if (node.object.type !== 'Identifier') return null;
  const object = (node.object as jsep.Identifier).name;
  if (!node.computed && node.property.type === 'Identifier') return `${object}.${(node.property as jsep.Identifier).name}`;
  if (node.computed && node.property.type === 'Literal' && typeof (node.property as jsep.Literal).value === 'string')
    return `${object}.${(node.property as jsep.Literal).value as string}`;
  return null;
}

function readName(name: string, known: ReadonlySet<string>): TCompiledExpression {
  if (!known.has(name)) throw new FlowCompileError('unknown_name', { name });
  return (scope) => {
    const v = scope.get(name);
    if (v === undefined) throw new FlowRunError(`${name} has no value yet`);
    return v;
  };
}

function compileNode(node: jsep.Expression, known: ReadonlySet<string>, depth: number, options: TCompileOptions): TCompiledExpression {
  if (depth > FLOW_EXPRESSION_DEPTH_MAX) throw new FlowCompileError('too_deep', { max: FLOW_EXPRESSION_DEPTH_MAX });
  const sub = (n: unknown) => compileNode(n as jsep.Expression, known, depth + 1, options);
  switch (node.type) {
    case 'Literal': {
      const v = (node as jsep.Literal).value;
      if (typeof v === 'number' && Number.isFinite(v)) return () => v;
      if (typeof v === 'string') {
        if (v.length > FLOW_STRING_MAX) throw new FlowCompileError('text_too_long');
        return () => v;
      }
      if (typeof v === 'boolean') return () => v;
      throw new FlowCompileError('unsupported_literal', { literal: String((node as jsep.Literal).raw) });
    }
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      if (name === 'true') return () => true;
      if (name === 'false') return () => false;
      return readName(name, known);
    }
    case 'MemberExpression': {
      const name = options.dottedNames ? dottedName(node as jsep.MemberExpression) : null;
      if (name === null) throw new FlowCompileError('unsupported_syntax', { what: 'property access' });
      return readName(name, known);
    }
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      const arg = sub(u.argument);
      if (u.operator === '-') return (s) => -num(arg(s), 'minus');
      if (u.operator === '+') return (s) => num(arg(s), 'plus');
      if (u.operator === '!') return (s) => !bool(arg(s), '!');
      throw new FlowCompileError('operator', { operator: u.operator });
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      if (!BINARY.has(b.operator)) throw new FlowCompileError('operator', { operator: b.operator });
      const left = sub(b.left);
      const right = sub(b.right);
      const op = b.operator;
      if (op === '&&') return (s) => bool(left(s), '&&') && bool(right(s), '&&');
      if (op === '||') return (s) => bool(left(s), '||') || bool(right(s), '||');
      if (['<', '<=', '>', '>=', '==', '!='].includes(op)) return (s) => compare(op, left(s), right(s));
      return (s) => arithmetic(op, left(s), right(s));
    }
    case 'ConditionalExpression': {
      const c = node as jsep.ConditionalExpression;
      const test = sub(c.test);
      const yes = sub(c.consequent);
      const no = sub(c.alternate);
      return (s) => (bool(test(s), '? :') ? yes(s) : no(s));
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      if (call.callee.type !== 'Identifier') throw new FlowCompileError('call_only_functions');
      const name = (call.callee as jsep.Identifier).name;
      if (!(options.functions ?? FUNCTIONS).has(name)) throw new FlowCompileError('unknown_function', { name });
      options.called?.add(name);
      const [lo, hi] = ARITY[name as keyof typeof ARITY];
      if (call.arguments.length < lo || call.arguments.length > hi)
        throw new FlowCompileError('arity', { name, count: lo === hi ? String(lo) : `${lo}–${hi}` });
      if (name === 'now') return (s) => s.now();
      if (name === 'changed') return changedOf;
      const args = call.arguments.map(sub);
      return (s) =>
        callFunction(
          name,
          args.map((a) => a(s)),
        );
    }
    default:
      throw new FlowCompileError('unsupported_syntax', { what: node.type });
  }
}

/** The names `{{name}}` placeholders of a message template read. */
export function templateNames(template: string): string[] {
  return [...template.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g)].map((m) => m[1] as string);
}

/**
 * Compiles a message template: `{{name}}` placeholders become the variable's value (numbers as they are, booleans
 * as true/false, JSON compact); a name with no value yet reads as an empty text.
 * @throws FlowCompileError when a placeholder names something unknown.
 */
export function compileTemplate(template: string, known: ReadonlySet<string>): (scope: TFlowScope) => string {
  for (const name of templateNames(template)) if (!known.has(name)) throw new FlowCompileError('unknown_template_name', { name });
  const parts = template.split(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g);
  return (scope) => parts.map((p, i) => (i % 2 === 0 ? p : textOf(scope.get(p)))).join('');
}

/** A value as text: JSON compact, anything else as String() writes it, no value as an empty text. */
export function textOf(v: TFlowValue | undefined): string {
  if (v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}
