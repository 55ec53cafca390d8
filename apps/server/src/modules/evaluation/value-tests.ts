/**
 * The value tests of rules on keys that are not numbers (docs/decisions/rules.md "Keys that are not numbers"), one
 * meaning for project rules (compile-conditions.ts) and platform rules (flows/expression.ts): JSON values compare
 * structurally (node's isDeepStrictEqual: members in any order, arrays in order, no coercion). Pure.
 */
import { isDeepStrictEqual } from 'node:util';

/** Whether `a` equals `b`: strings, numbers and booleans by `===`, JSON arrays and objects structurally. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && isDeepStrictEqual(a, b);
}

/**
 * Whether `hay` contains `needle`: a string contains a string (a substring); a JSON array contains an element equal
 * to `needle`; a JSON object contains an object `needle` when each of `needle`'s members equals the same member of
 * `hay` (`{"mode":"auto"}` is in `{"mode":"auto","fan":2}`). Anything else (a boolean, a number, a string in an
 * object, an array in an object) contains nothing.
 */
export function valueContains(hay: unknown, needle: unknown): boolean {
  if (typeof hay === 'string') return typeof needle === 'string' && hay.includes(needle);
  if (Array.isArray(hay)) return hay.some((element) => valuesEqual(element, needle));
  if (typeof hay !== 'object' || hay === null) return false;
  if (typeof needle !== 'object' || needle === null || Array.isArray(needle)) return false;
  const members = new Map(Object.entries(hay));
  return Object.entries(needle).every(([name, v]) => members.has(name) && valuesEqual(members.get(name), v));
}
