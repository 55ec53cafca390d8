/**
 * For tests and the migration benches: migrates a database only up to the migration before a given one — before raw
 * telemetry was partitioned (0018), so rows can be stored in the old unpartitioned `telemetry` table before 0019
 * runs; or before hot rows took key ids (0031), so rows can be stored with their key as text before 0032 runs.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database } from '../../db/client.js';
import { MIGRATIONS_FOLDER } from '../../db/migrate.js';

/** The tag of the first migration of partitioned raw telemetry. */
export const PARTITIONS_MIGRATION = '0019_telemetry_partitions_chunks';

/** The tag of the migration of hot rows to key ids. */
export const KEY_IDS_MIGRATION = '0032_telemetry_key_ids';

/** Applies every migration before {@link PARTITIONS_MIGRATION} to `database`. */
export async function migrateBeforePartitions(database: Database): Promise<void> {
  await migrateBefore(database, PARTITIONS_MIGRATION);
}

/**
 * Applies every migration before the one tagged `tag` to `database`.
 * @throws Error when no migration has that tag.
 */
export async function migrateBefore(database: Database, tag: string): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'tessera-migrations-'));
  try {
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalPath = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; tag: string }[] };
    const cut = journal.entries.findIndex((e) => e.tag === tag);
    if (cut < 0) throw new Error(`no migration ${tag}`);
    journal.entries = journal.entries.slice(0, cut);
    writeFileSync(journalPath, JSON.stringify(journal));
    if (database.kind === 'pglite') await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    else await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder: folder });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
