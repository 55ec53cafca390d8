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

/**
 * The path (`body.name`, `query.q`, `body.items.2.name`) of the first string in `value` — a parsed JSON body, a query
 * or the path parameters, searched through arrays and objects (keys too) — that holds NUL, or null when none does.
 * The server refuses such a request before validation (docs/decisions/api-input.md "Text").
 */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path || '(value)' : null;
  if (typeof value !== 'object' || value === null) return null;
  const stack: { v: unknown; path: string }[] = [{ v: value, path }];
  while (stack.length > 0) {
    const { v, path: at } = stack.pop() as { v: unknown; path: string };
    if (typeof v === 'string') {
      if (v.includes(NUL)) return at || '(value)';
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ v: v[i], path: `${at}.${i}` });
    } else if (typeof v === 'object' && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes(NUL)) return `${at}.(key)`;
        stack.push({ v: item, path: at ? `${at}.${key}` : key });
      }
    }
  }
  return null;
}
