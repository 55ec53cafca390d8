/**
 * The rules every request value follows (docs/decisions/api-input.md), written once so that every route has them:
 * ids, integers given as text (path and query), epoch milliseconds, and text without NUL. Each bound is what the
 * storage behind it can hold, so a value that passes validation can never make the database fail (HTTP 500).
 */
import { z } from 'zod';
import { ID_MAX } from './limits.js';

/** The largest epoch-millisecond value: the ECMAScript Date range, ±8.64e15 ms (ECMA-262 §21.4.1.1). */
export const EPOCH_MS_MAX = 8_640_000_000_000_000;

/** An id in a JSON body: an integer 1 … {@link ID_MAX}. */
export const ZId = z.number().int().min(1).max(ID_MAX);

/** An integer written as text: an optional minus and decimal digits, no leading zeros (not `0x10`, `1e3`, `+7`, ` 7`, `7.0`). */
const INT_TEXT = /^-?(0|[1-9][0-9]{0,15})$/;

/**
 * An integer from `min` to `max` given as text (a path segment or a query value), read strictly: decimal digits
 * only, so `0x10`, `1e3`, ` 7` or `7.0` are refused instead of being read as 16, 1000 or 7.
 */
export function zIntText(min: number, max: number) {
  return z.string().regex(INT_TEXT, 'an integer in decimal digits').transform(Number).pipe(z.number().int().min(min).max(max));
}

/** An id given as text (path or query): decimal digits, 1 … {@link ID_MAX}. */
export const ZIdText = zIntText(1, ID_MAX);
/** Epoch milliseconds given as text (query): 0 … {@link EPOCH_MS_MAX}. */
export const ZEpochMsText = zIntText(0, EPOCH_MS_MAX);
/** Epoch milliseconds in a JSON body: an integer 0 … {@link EPOCH_MS_MAX}. */
export const ZEpochMs = z.number().int().min(0).max(EPOCH_MS_MAX);

/** What text may never hold: U+0000, which PostgreSQL `text` cannot store. */
export const NUL = '\u0000';

/** An object or array {@link findNul} has yet to search: its value, and how its path is made from its parent's. */
interface TNulFrame {
  v: object;
  parent: TNulFrame | null;
  /** The root's path, an array index, or an object key. */
  step: string;
  index: boolean;
}

/** The path of `step` (an index or a key) under `frame`, e.g. `body.items.2` — built only once NUL was found. */
function nulPath(frame: TNulFrame, step: string, index: boolean): string {
  const chain: TNulFrame[] = [];
  for (let f: TNulFrame | null = frame; f; f = f.parent) chain.push(f);
  let at = (chain.pop() as TNulFrame).step;
  const join = (s: string, i: boolean) => (i ? `${at}.${s}` : at ? `${at}.${s}` : s);
  for (let f = chain.pop(); f; f = chain.pop()) at = join(f.step, f.index);
  return join(step, index);
}

/**
 * The path (`body.name`, `query.q`, `body.items.2.name`) of the first string in `value` — a parsed JSON body, a query
 * or the path parameters, searched through arrays and objects (keys too) — that holds NUL, or null when none does.
 * The server refuses such a request before validation (docs/decisions/api-input.md "Text"). Runs on every request:
 * strings are looked at where they are, and a path is put together only for the NUL found.
 */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path || '(value)' : null;
  if (typeof value !== 'object' || value === null) return null;
  const stack: TNulFrame[] = [{ v: value, parent: null, step: path, index: false }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const v = frame.v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'string') {
          if (item.includes(NUL)) return nulPath(frame, String(i), true);
        } else if (typeof item === 'object' && item !== null) stack.push({ v: item, parent: frame, step: String(i), index: true });
      }
      continue;
    }
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      if (key.includes(NUL)) return nulPath(frame, '(key)', true);
      const item: unknown = (v as Record<string, unknown>)[key];
      if (typeof item === 'string') {
        if (item.includes(NUL)) return nulPath(frame, key, false);
      } else if (typeof item === 'object' && item !== null) stack.push({ v: item, parent: frame, step: key, index: false });
    }
  }
  return null;
}
