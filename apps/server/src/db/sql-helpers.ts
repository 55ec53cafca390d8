/**
 * Small SQL helpers shared by the modules: array parameters, substring search and recognising a unique-index violation on both
 * drivers (paging: paging.ts).
 */
import { ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * A JS array as one array parameter (`= any(${sqlArray(ids)}::int[])`, `unnest(...)`): drizzle would otherwise expand
 * it into a list of parameters.
 */
export const sqlArray = (values: readonly unknown[]): SQL => sql`${sql.param(values)}`;

/** A case-insensitive substring match of `q` on any of `columns`; `%`, `_` and `\` in `q` match literally. */
export function searchAny(q: string | undefined, columns: PgColumn[]): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(...columns.map((c) => ilike(c, pattern)));
}

/**
 * True when `err` is PostgreSQL's unique_violation (23505), whether thrown by pg, by PGlite, or wrapped by
 * Drizzle in a DrizzleQueryError (`cause`).
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
