/**
 * The ids hot raw telemetry stores instead of a key's text (`telemetry_keys`, docs/decisions/telemetry-storage.md
 * "The layout"): resolved before the ingest batch statement, each key at most once per process and database (a key
 * never changes id), added on first sight. Safe across replicas: a key missing from the table is inserted with
 * `on conflict do nothing` and then read back, so two writers adding the same key at once both get the one id that
 * was committed.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { textColumn } from './write-arrays.js';

/** Ids known per database handle (a process may hold several: tests, the ingest pool beside the main one). */
const known = new WeakMap<Db, Map<string, number>>();

/** The ids `keys` already have in `telemetry_keys`, added to `cache`. */
async function readIds(db: Db, keys: readonly string[], cache: Map<string, number>): Promise<void> {
  const rows = rowsOf<{ id: number; key: string }>(
    await db.execute(sql`select id, key from telemetry_keys where key = any(${textColumn(keys)}::text[])`),
  );
  for (const r of rows) cache.set(r.key, Number(r.id));
}

/**
 * The `telemetry_keys` id of every key of `keys`, adding the keys never stored before. Only keys this process has
 * not resolved yet cost a query: one select, and for keys still missing one insert and one select more (the insert
 * skips keys another writer added meanwhile, and a key the table already holds is never inserted, so no id is spent
 * on it).
 * @throws the database error of the select or insert.
 */
export async function keyIdsOf(db: Db, keys: Iterable<string>): Promise<Map<string, number>> {
  let cache = known.get(db);
  if (!cache) {
    cache = new Map();
    known.set(db, cache);
  }
  const ids = cache;
  const missing = [...new Set(keys)].filter((k) => !ids.has(k));
  if (missing.length === 0) return ids;
  await readIds(db, missing, ids);
  const added = missing.filter((k) => !ids.has(k)).sort();
  if (added.length > 0) {
    // sorted, so writers adding overlapping keys wait on each other in one order (no deadlock)
    await db.execute(sql`insert into telemetry_keys (key) select k from unnest(${textColumn(added)}::text[]) as k
      order by k on conflict (key) do nothing`);
    await readIds(db, added, ids);
    const lost = added.find((k) => !ids.has(k));
    if (lost !== undefined) throw new Error(`telemetry key ${JSON.stringify(lost)} has no id after its insert`);
  }
  return ids;
}
