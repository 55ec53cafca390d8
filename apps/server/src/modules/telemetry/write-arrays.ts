/**
 * Whole columns of the ingest batch statement as ONE text parameter each, an array literal (`{1,2,NULL}`) that
 * PostgreSQL casts (`$1::text::int[]`): node-postgres would otherwise turn every element of an array parameter into
 * a string and run two regular expressions over it to quote it (the largest part of the server's parameter encoding
 * in 1-point ingest, docs/decisions/ingest.md). The parameter is typed text, so PGlite sends it as it is too.
 */

/**
 * Numbers (or nulls) as an array literal, e.g. `{1,2.5,NULL}`, to cast to the column's array type. Only finite
 * numbers may be passed (JavaScript's shortest round-trip form, which float8in and int8in read back exactly).
 */
export function numberColumn(values: readonly (number | null)[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) text += ',';
    text += v === null ? 'NULL' : String(v);
  }
  return `${text}}`;
}

/** Quoted forms of strings seen (telemetry keys repeat: a batch of one sensor's points has one key). */
const quoted = new Map<string, string>();
/** Quoted forms kept at most, so that a stream of distinct strings cannot grow the map without bound. */
const QUOTED_MAX = 10_000;

/** Strings as an array literal, every element quoted (`{"a","b\"c"}`), to cast to `text[]`. */
export function textColumn(values: readonly string[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) text += ',';
    text += quote(values[i]);
  }
  return `${text}}`;
}

function quote(s: string): string {
  let q = quoted.get(s);
  if (q === undefined) {
    q = `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    if (quoted.size >= QUOTED_MAX) quoted.clear();
    quoted.set(s, q);
  }
  return q;
}
